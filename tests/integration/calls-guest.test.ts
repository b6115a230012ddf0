import { randomUUID } from 'node:crypto';
import { createTRPCClient, createWSClient, type TRPCClientError, wsLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type GuestPass, guestCallLink, guestPassText } from '../../server/calls/guest-link.js';
import type { CallEvent, SeatsEvent } from '../../server/calls/schema.js';
import type { AppRouter } from '../../server/trpc/root.js';
import { callerFor, failure, wsClient } from '../helpers/callers.js';
import { startTestServer, type TestServer, type TestUser } from '../helpers/server.js';

/**
 * A visitor's free consultation, joined without an account through her guest
 * link: the link opens that one call only, from 10 minutes before the start
 * to the end, as the client's side, over the WebSocket too; revoking it puts
 * her out at once; the console hears who is waiting.
 */
const MINUTE = 60_000;
let server: TestServer;
/** The server's clock runs this far ahead of the real one. */
let shift = 0;
let meera: TestUser;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startTestServer({}, { clock: () => new Date(Date.now() + shift) });
  meera = await server.user({ role: 'admin', firstName: 'Meera' });
}, 180_000);
afterEach(async () => {
  shift = 0;
  await Promise.all(closers.splice(0).map((c) => c()));
});
afterAll(async () => {
  await server?.stop();
});

/** A visitor's consultation (no account) starting `inMinutes` from now, 30 minutes long. */
async function visitorSession(inMinutes: number, name = 'Priya Sharma') {
  const { db } = server.deps;
  const owner = await server.user({ role: 'admin', firstName: 'Owner' });
  const country = await db.selectFrom('countries').select('id').orderBy('id').executeTakeFirstOrThrow();
  const consultation = await db
    .insertInto('consultations')
    .values({
      name,
      email: `${randomUUID()}@example.org`,
      gender: 2,
      age: 31,
      height: '5.4',
      weight: 62,
      state: 'Kerala',
      contact: '9876543210',
      country_id: country.id,
      is_medical_condition: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const startsAt = new Date(Date.now() + inMinutes * MINUTE);
  const endsAt = new Date(startsAt.getTime() + 30 * MINUTE);
  const row = await db
    .insertInto('appointments')
    .values({
      client_id: null,
      consultation_id: consultation.id,
      dietitian_id: owner.id,
      kind: 'consultation',
      starts_at: startsAt,
      ends_at: endsAt,
      busy_until: endsAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, endsAt };
}

async function linkOf(session: { id: number; endsAt: Date }): Promise<GuestPass> {
  const link = await guestCallLink(server.deps.db, server.deps.secret, session, { baseUrl: server.url, now: new Date() });
  const url = new URL(link.url);
  expect(url.pathname).toBe(`/call/guest/${session.id}`);
  return {
    appointmentId: session.id,
    v: url.searchParams.get('v') ?? '',
    exp: url.searchParams.get('exp') ?? '',
    sig: url.searchParams.get('sig') ?? '',
  };
}

/** A browser without a session, its socket opened with the guest link (as the guest page does). */
function guestSocket(pass: GuestPass | null) {
  const socket = createWSClient({
    url: `${server.url.replace(/^http/, 'ws')}/trpc`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: pass ? { token: '', callGuest: guestPassText(pass) } : null,
    retryDelayMs: () => 100,
  });
  closers.push(() => socket.close());
  return createTRPCClient<AppRouter>({ links: [wsLink({ client: socket, transformer: superjson })] });
}

function record<E>(subscribe: (handlers: { onData: (e: unknown) => void; onError: (e: unknown) => void }) => { unsubscribe(): void }) {
  const events: E[] = [];
  const errors: TRPCClientError<AppRouter>[] = [];
  const sub = subscribe({ onData: (e) => events.push(e as E), onError: (e) => errors.push(e as TRPCClientError<AppRouter>) });
  closers.push(async () => sub.unsubscribe());
  return {
    events,
    errors,
    ready: () =>
      expect
        .poll(() => (events as { kind: string }[]).some((e) => e.kind === 'ready') || errors.length > 0, { timeout: 20_000 })
        .toBe(true),
    leave: () => sub.unsubscribe(),
  };
}

/** The code and message a call over the socket failed with (throws if it succeeded). */
async function refused(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as TRPCClientError<AppRouter>;
    return { code: e.data?.code, message: e.message };
  }
  throw new Error('expected the call to be refused');
}

describe("a visitor's guest link", () => {
  it('opens her call without an account, shows her name to the dietitian, and connects the two sides', async () => {
    const session = await visitorSession(5);
    const pass = await linkOf(session);
    const anonymous = await callerFor(server);

    const info = await anonymous.calls.guest.get({ pass });
    expect(info).toMatchObject({ appointmentId: session.id, side: 'client', state: 'open', guest: true, otherName: 'Owner' });
    expect(info.visitorName).toBe('Priya Sharma');
    const team = await (await callerFor(server, meera.token)).calls.get({ appointmentId: session.id });
    expect(team).toMatchObject({ side: 'team', otherName: 'Priya Sharma', visitorName: 'Priya Sharma', guest: false });
    expect((await anonymous.calls.guest.iceConfig({ pass })).expiresAt.getTime()).toBeGreaterThan(session.endsAt.getTime());

    // She joins first, over a socket without a session: the console hears that she is waiting.
    const seats = record<SeatsEvent>((h) => wsClient(server.url, meera.token).client.admin.calls.seats.subscribe(undefined, h));
    await seats.ready();
    const guestPeer = randomUUID();
    const guest = guestSocket(pass);
    const her = record<CallEvent>((h) => guest.calls.guest.join.subscribe({ pass, peerId: guestPeer }, h));
    await her.ready();
    expect(her.errors).toEqual([]);
    await expect.poll(() => seats.events.some((e) => e.kind === 'seats'), { timeout: 10_000 }).toBe(true);
    const waiting = await (await callerFor(server, meera.token)).admin.calls.waiting();
    expect(waiting).toEqual([expect.objectContaining({ appointmentId: session.id, name: 'Priya Sharma', guest: true })]);

    // The dietitian joins: signals pass both ways, and nobody is waiting any more.
    const teamSocket = wsClient(server.url, meera.token);
    closers.push(() => teamSocket.close());
    const teamPeer = randomUUID();
    const meeraPage = record<CallEvent>((h) => teamSocket.client.calls.join.subscribe({ appointmentId: session.id, peerId: teamPeer }, h));
    await meeraPage.ready();
    expect(await teamSocket.client.calls.signal.mutate({ appointmentId: session.id, peerId: teamPeer, signal: { kind: 'hello' } })).toEqual(
      {
        delivered: true,
      },
    );
    await expect.poll(() => her.events.some((e) => e.kind === 'signal' && e.from === teamPeer), { timeout: 10_000 }).toBe(true);
    expect(await guest.calls.guest.signal.mutate({ pass, peerId: guestPeer, signal: { kind: 'welcome' } })).toEqual({ delivered: true });
    await expect.poll(() => meeraPage.events.some((e) => e.kind === 'signal' && e.from === guestPeer), { timeout: 10_000 }).toBe(true);
    expect(await (await callerFor(server, meera.token)).admin.calls.waiting()).toEqual([]);

    // Her socket answers nothing that needs a session.
    expect(await refused(guest.calls.get.query({ appointmentId: session.id }))).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses another call, an altered link, a socket without the link, and before the window', async () => {
    const [mine, other] = await Promise.all([visitorSession(5), visitorSession(5, 'Someone Else')]);
    const pass = await linkOf(mine);
    const anonymous = await callerFor(server);
    // Her link, pointed at another call: refused, saying it does not open this call.
    const elsewhere = await failure(anonymous.calls.guest.get({ pass: { ...pass, appointmentId: other.id } }));
    expect(elsewhere).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('does not open this call') });
    const sig = pass.sig.slice(0, -1) + (pass.sig.endsWith('A') ? 'B' : 'A');
    expect(await failure(anonymous.calls.guest.get({ pass: { ...pass, sig } }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure(anonymous.calls.guest.get({ pass: { ...pass, v: String(Number(pass.v) + 1) } }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      await failure(
        anonymous.calls.guest.signal({ pass: { ...pass, appointmentId: other.id }, peerId: randomUUID(), signal: { kind: 'hello' } }),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' });

    // A socket opened without a guest link (nor a session) gets nothing, as before.
    const bare = guestSocket(null);
    expect(await refused(bare.calls.guest.get.query({ pass }))).toMatchObject({ code: 'UNAUTHORIZED' });
    // Her socket, asked to join another call with her link: refused.
    const join = record<CallEvent>((h) =>
      guestSocket(pass).calls.guest.join.subscribe({ pass: { ...pass, appointmentId: other.id }, peerId: randomUUID() }, h),
    );
    await join.ready();
    expect(join.errors[0]?.data?.code).toBe('NOT_FOUND');

    // Too early: the page says when it opens, but joining is refused.
    const later = await visitorSession(30);
    const laterPass = await linkOf(later);
    expect(await anonymous.calls.guest.get({ pass: laterPass })).toMatchObject({ state: 'early' });
    expect(await failure(anonymous.calls.guest.iceConfig({ pass: laterPass }))).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('10 minutes before'),
    });
  });

  it('expires at the end of the session', async () => {
    const session = await visitorSession(5);
    const pass = await linkOf(session);
    const anonymous = await callerFor(server);
    shift = 34 * MINUTE;
    expect((await anonymous.calls.guest.get({ pass })).state).toBe('open');
    shift = 36 * MINUTE;
    const expired = await failure(anonymous.calls.guest.get({ pass }));
    expect(expired).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('has ended') });
    expect(await failure(anonymous.calls.guest.iceConfig({ pass }))).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('stops at once when revoked: the guest in the call is put out, and a new link works', async () => {
    const session = await visitorSession(5);
    const pass = await linkOf(session);
    const guestPeer = randomUUID();
    const guest = guestSocket(pass);
    const her = record<CallEvent>((h) => guest.calls.guest.join.subscribe({ pass, peerId: guestPeer }, h));
    await her.ready();

    const asMeera = await callerFor(server, meera.token);
    const fresh = await asMeera.admin.calls.revokeGuestLink({ appointmentId: session.id });
    await expect.poll(() => her.events.some((e) => e.kind === 'revoked'), { timeout: 10_000 }).toBe(true);
    const anonymous = await callerFor(server);
    expect(await failure(anonymous.calls.guest.get({ pass }))).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('replaced'),
    });
    expect(await refused(guest.calls.guest.signal.mutate({ pass, peerId: guestPeer, signal: { kind: 'hello' } }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await asMeera.admin.calls.waiting()).toEqual([]);

    const url = new URL(fresh.url);
    const next = {
      appointmentId: session.id,
      v: url.searchParams.get('v')!,
      exp: url.searchParams.get('exp')!,
      sig: url.searchParams.get('sig')!,
    };
    expect(Number(next.v)).toBe(Number(pass.v) + 1);
    expect((await anonymous.calls.guest.get({ pass: next })).state).toBe('open');
    // The console's copy of the link is the current one.
    expect((await asMeera.admin.calls.guestLink({ appointmentId: session.id })).url).toContain(`v=${next.v}&`);
  });

  it('is only for a visitor: a client who signs in needs none, and clients cannot make one', async () => {
    const asha = await server.user({ firstName: 'Asha' });
    const owner = await server.user({ role: 'admin', firstName: 'Owner' });
    const startsAt = new Date(Date.now() + 5 * MINUTE);
    const endsAt = new Date(startsAt.getTime() + 30 * MINUTE);
    const row = await server.deps.db
      .insertInto('appointments')
      .values({ client_id: asha.id, dietitian_id: owner.id, kind: 'follow_up', starts_at: startsAt, ends_at: endsAt, busy_until: endsAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await failure((await callerFor(server, meera.token)).admin.calls.guestLink({ appointmentId: row.id }))).toMatchObject({
      code: 'CONFLICT',
    });
    expect(await failure((await callerFor(server, asha.token)).admin.calls.guestLink({ appointmentId: row.id }))).toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});

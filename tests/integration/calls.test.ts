import { randomUUID } from 'node:crypto';
import type { TRPCClientError } from '@trpc/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallEvent, CallSignal } from '../../server/calls/schema.js';
import { turnCredentials } from '../../server/calls/turn.js';
import type { AppRouter } from '../../server/trpc/root.js';
import { callerFor, failure, wsClient } from '../helpers/callers.js';
import { startSecondInstance, startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { type RunningTurn, startTurnServer, turnAllocate } from '../helpers/turn.js';

/**
 * Calls (decision 120): who may open a call and when, the TURN
 * credentials (checked against a real coturn), and signalling between the
 * two sides over tRPC's WebSocket across two instances, with nobody else able
 * to join or listen.
 */
const TURN_SECRET = `turn-${randomUUID()}`;
const MINUTE = 60_000;
let turn: RunningTurn;
let server: TestServer;
let second: { url: string; stop(): Promise<void> };
/** The server's clock runs this far ahead of the real one (the window tests move it). */
let shift = 0;
let meera: TestUser;
let anil: TestUser;
let asha: TestUser;
let ravi: TestUser;
const sockets: ReturnType<typeof wsClient>[] = [];

beforeAll(async () => {
  turn = await startTurnServer(TURN_SECRET);
  const env = { ICE_SERVERS: `stun:127.0.0.1:${turn.port},${turn.url}`, TURN_SECRET };
  server = await startTestServer(env, { clock: () => new Date(Date.now() + shift) });
  second = await startSecondInstance(server, env);
  [meera, anil, asha, ravi] = await Promise.all([
    server.user({ role: 'admin', firstName: 'Meera' }),
    server.user({ role: 'admin', firstName: 'Anil' }),
    server.user({ firstName: 'Asha' }),
    server.user({ firstName: 'Ravi' }),
  ]);
}, 180_000);
afterEach(async () => {
  shift = 0;
  await Promise.all(sockets.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
  await turn?.stop();
});

/** An appointment of Asha's starting `inMinutes` from now, 30 minutes long, with a dietitian of its own (no overlaps). */
async function appointment(inMinutes: number, status: 'booked' | 'cancelled' = 'booked'): Promise<number> {
  const owner = await server.user({ role: 'admin', firstName: 'Owner' });
  const startsAt = new Date(Date.now() + inMinutes * MINUTE);
  const endsAt = new Date(startsAt.getTime() + 30 * MINUTE);
  const row = await server.deps.db
    .insertInto('appointments')
    .values({
      client_id: asha.id,
      dietitian_id: owner.id,
      kind: 'follow_up',
      starts_at: startsAt,
      ends_at: endsAt,
      busy_until: endsAt,
      status,
      ...(status === 'cancelled' ? { cancelled_at: new Date() } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function connect(token: string, url = server.url) {
  const socket = wsClient(url, token);
  sockets.push(socket);
  return socket;
}

/** One page in the call: its peer id and everything its subscription got. */
function join(socket: ReturnType<typeof wsClient>, appointmentId: number, peerId = randomUUID()) {
  const events: CallEvent[] = [];
  const errors: TRPCClientError<AppRouter>[] = [];
  const sub = socket.client.calls.join.subscribe(
    { appointmentId, peerId },
    { onData: (e) => events.push(e as CallEvent), onError: (e) => errors.push(e as TRPCClientError<AppRouter>) },
  );
  return {
    peerId,
    events,
    errors,
    signals: () => events.flatMap((e) => (e.kind === 'signal' ? [e.signal] : [])),
    ready: () => expect.poll(() => events.some((e) => e.kind === 'ready') || errors.length > 0, { timeout: 20_000 }).toBe(true),
    failed: () => expect.poll(() => errors[0]?.data?.code, { timeout: 20_000 }),
    send: (signal: CallSignal) => socket.client.calls.signal.mutate({ appointmentId, peerId, signal }),
    leave: () => sub.unsubscribe(),
  };
}

describe('who may open a call', () => {
  it("shows the call to the appointment's client and to dietitians, and to nobody else", async () => {
    const id = await appointment(5);
    const mine = await (await callerFor(server, asha.token)).calls.get({ appointmentId: id });
    expect(mine).toMatchObject({ appointmentId: id, side: 'client', state: 'open', clientId: asha.id });
    expect(mine.otherName).toBe('Owner');
    const team = await (await callerFor(server, meera.token)).calls.get({ appointmentId: id });
    expect(team).toMatchObject({ side: 'team', otherName: 'Asha' });
    // Any dietitian of the practice may take the team's side (one at a time: see signalling).
    expect((await (await callerFor(server, anil.token)).calls.get({ appointmentId: id })).side).toBe('team');

    // Another client, a missing appointment, nobody signed in: the same "no such call" (or sign in first).
    expect(await failure((await callerFor(server, ravi.token)).calls.get({ appointmentId: id }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure((await callerFor(server, ravi.token)).calls.iceConfig({ appointmentId: id }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await failure((await callerFor(server, asha.token)).calls.get({ appointmentId: 2_000_000_000 }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await failure((await callerFor(server)).calls.get({ appointmentId: id }))).toMatchObject({ code: 'UNAUTHORIZED' });

    // Over HTTP the other client is answered 404, as any page of the app would be.
    const res = await fetch(`${server.url}/trpc/calls.get?input=${encodeURIComponent(JSON.stringify({ json: { appointmentId: id } }))}`, {
      headers: { authorization: `Bearer ${ravi.token}` },
    });
    expect(res.status).toBe(404);

    // Signalling is checked the same way on every call: another client can neither join nor send.
    const theirs = join(connect(ravi.token), id);
    await theirs.failed().toBe('NOT_FOUND');
    expect(
      await failure(
        (await callerFor(server, ravi.token)).calls.signal({ appointmentId: id, peerId: randomUUID(), signal: { kind: 'hello' } }),
      ),
    ).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('opens 10 minutes before the start and closes 30 minutes after the end; a cancelled one never opens', async () => {
    const id = await appointment(11);
    const asAsha = await callerFor(server, asha.token);
    const early = await asAsha.calls.get({ appointmentId: id });
    expect(early.state).toBe('early');
    expect(early.opensAt.getTime()).toBe(early.startsAt.getTime() - 10 * MINUTE);
    expect(await failure(asAsha.calls.iceConfig({ appointmentId: id }))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The call opens 10 minutes before the appointment starts.',
    });
    const tooEarly = join(connect(asha.token), id);
    await tooEarly.failed().toBe('FORBIDDEN');

    shift = 1.5 * MINUTE; // 9.5 minutes before the start
    expect((await asAsha.calls.get({ appointmentId: id })).state).toBe('open');
    await expect(asAsha.calls.iceConfig({ appointmentId: id })).resolves.toBeTruthy();

    shift = (11 + 30 + 30) * MINUTE + 2000; // just past the end plus the grace
    expect((await asAsha.calls.get({ appointmentId: id })).state).toBe('closed');
    expect(await failure(asAsha.calls.iceConfig({ appointmentId: id }))).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This call has ended.',
    });

    shift = 0;
    const cancelled = await appointment(2, 'cancelled');
    expect((await asAsha.calls.get({ appointmentId: cancelled })).state).toBe('closed');
    expect(await failure(asAsha.calls.iceConfig({ appointmentId: cancelled }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('TURN credentials', () => {
  it('are made per person and call in the coturn REST scheme, and a real coturn accepts them until they expire', async () => {
    const id = await appointment(3);
    const config = await (await callerFor(server, asha.token)).calls.iceConfig({ appointmentId: id });
    const info = await (await callerFor(server, asha.token)).calls.get({ appointmentId: id });
    expect(config.expiresAt).toEqual(info.closesAt);
    const stun = config.iceServers.find((s) => s.urls[0]!.startsWith('stun:'))!;
    expect(stun).toEqual({ urls: [`stun:127.0.0.1:${turn.port}`] });
    const relay = config.iceServers.find((s) => s.urls[0]!.startsWith('turn:'))!;
    expect(relay.urls).toEqual([turn.url]);
    expect(relay.username).toBe(`${Math.floor(info.closesAt.getTime() / 1000)}:${asha.id}`);

    // coturn allocates a relay with them...
    const allocated = await turnAllocate(turn.port, relay.username!, relay.credential!);
    expect(allocated).toMatchObject({ ok: true, relayPort: expect.any(Number) });
    // ...not with a wrong password, nor once the time in the username has passed.
    expect(await turnAllocate(turn.port, relay.username!, `${relay.credential}x`)).toEqual({ ok: false, errorCode: 401 });
    const expired = turnCredentials(TURN_SECRET, asha.id, new Date(Date.now() - MINUTE));
    expect(await turnAllocate(turn.port, expired.username, expired.credential)).toEqual({ ok: false, errorCode: 401 });
    // The dietitian gets credentials of their own.
    const theirs = await (await callerFor(server, meera.token)).calls.iceConfig({ appointmentId: id });
    expect(theirs.iceServers.find((s) => s.urls[0]!.startsWith('turn:'))!.username).toBe(
      `${Math.floor(info.closesAt.getTime() / 1000)}:${meera.id}`,
    );
  });
});

describe('signalling', () => {
  it('carries offers, answers, candidates and media state between the two sides across instances, and to nobody else', async () => {
    const id = await appointment(1);
    const client = join(connect(asha.token), id);
    const team = join(connect(meera.token, second.url), id);
    await Promise.all([client.ready(), team.ready()]);
    expect(client.errors).toEqual([]);
    expect(team.errors).toEqual([]);

    expect(await client.send({ kind: 'hello' })).toEqual({ delivered: true });
    await expect.poll(() => team.signals(), { timeout: 10_000 }).toEqual([{ kind: 'hello' }]);

    // A real offer is a few kilobytes; this one is larger than one NOTIFY may carry, and arrives whole.
    const sdp = `v=0\r\n${Array.from({ length: 400 }, (_, i) => `a=candidate:${i} 1 udp 2122260223 192.0.2.${i % 250} ${50_000 + i} typ host\r\n`).join('')}`;
    expect(sdp.length).toBeGreaterThan(20_000);
    await team.send({ kind: 'description', type: 'offer', sdp });
    await team.send({
      kind: 'candidate',
      candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 },
    });
    await team.send({ kind: 'media', muted: true, cameraOff: false });
    await expect.poll(() => client.signals().length, { timeout: 10_000 }).toBe(3);
    expect(client.signals()).toEqual([
      { kind: 'description', type: 'offer', sdp },
      { kind: 'candidate', candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0 } },
      { kind: 'media', muted: true, cameraOff: false },
    ]);
    // Nothing came back to the sender.
    expect(team.signals()).toEqual([{ kind: 'hello' }]);

    // A second dietitian cannot take the team's place, and a page that holds no place cannot send.
    const intruder = join(connect(anil.token), id);
    await intruder.failed().toBe('CONFLICT');
    expect(
      await failure(
        (await callerFor(server, anil.token)).calls.signal({ appointmentId: id, peerId: randomUUID(), signal: { kind: 'hello' } }),
      ),
    ).toMatchObject({ code: 'CONFLICT' });
    expect(client.signals()).toHaveLength(3);

    // The dietitian leaves: the client is told, and its signals go nowhere.
    team.leave();
    await expect.poll(() => client.events.some((e) => e.kind === 'left'), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => client.send({ kind: 'hello' }), { timeout: 10_000 }).toEqual({ delivered: false });

    // Now another dietitian may take the place.
    const cover = join(connect(anil.token, second.url), id);
    await cover.ready();
    expect(cover.errors).toEqual([]);
    expect(await client.send({ kind: 'bye' })).toEqual({ delivered: true });
    await expect.poll(() => cover.signals(), { timeout: 10_000 }).toEqual([{ kind: 'bye' }]);
  });

  it('moves the client to their newest page: the old one is told it was replaced and can no longer send', async () => {
    const id = await appointment(2);
    const team = join(connect(meera.token), id);
    const first = join(connect(asha.token), id);
    await Promise.all([team.ready(), first.ready()]);
    const again = join(connect(asha.token, second.url), id);
    await again.ready();
    expect(again.errors).toEqual([]);
    await expect.poll(() => first.events.some((e) => e.kind === 'replaced'), { timeout: 10_000 }).toBe(true);
    expect(await first.send({ kind: 'hello' }).catch((e: TRPCClientError<AppRouter>) => e.data?.code)).toBe('CONFLICT');
    await team.send({ kind: 'hello' });
    await expect.poll(() => again.signals(), { timeout: 10_000 }).toEqual([{ kind: 'hello' }]);
    expect(first.signals()).toEqual([]);
    // The old page closing does not free the place the new one holds.
    first.leave();
    await team.send({ kind: 'welcome' });
    await expect.poll(() => again.signals().length, { timeout: 10_000 }).toBe(2);
    expect(team.events.some((e) => e.kind === 'left')).toBe(false);
  });
});

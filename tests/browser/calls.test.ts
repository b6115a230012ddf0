import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, FAKE_MEDIA_FLAGS, launchBrowser, PHONE } from '../helpers/browser.js';
import { newClient } from '../helpers/fixtures.js';
import { expectToast, screenshot, signedInPage } from '../helpers/pages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type RunningTurn, startTurnServer } from '../helpers/turn.js';

/**
 * A call in the browser: two Chromium contexts with fake cameras
 * and microphones, the client on a phone and the dietitian on a desktop, on
 * /call/{id}. Each sees the other's video (frames decoded, from getStats),
 * muting and turning the camera off show on the other side, a third account
 * is turned away, and the dietitian writes the session's private notes.
 */
let turn: RunningTurn;
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  // The call goes through a real TURN server with credentials the app makes (as between two networks).
  const secret = `browser-turn-${Date.now()}`;
  turn = await startTurnServer(secret);
  const env = { ICE_SERVERS: turn.url, TURN_SECRET: secret };
  [server, browser] = await Promise.all([startTestServer(env, { serveClient: true }), launchBrowser({ args: [...FAKE_MEDIA_FLAGS] })]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await turn?.stop();
});

/** Keeps every RTCPeerConnection the page makes, so the test can read its getStats(). */
async function watchPeerConnections(page: Page) {
  await page.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections = made;
    window.RTCPeerConnection = class extends Original {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    };
  });
}

/** The page's connections as getStats and the states see them: for a message when the call does not connect. */
const peerStates = (page: Page) =>
  page.evaluate(async () => {
    const out: string[] = [];
    for (const pc of (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections) {
      const kinds: string[] = [];
      (await pc.getStats()).forEach((r: Record<string, unknown>) => {
        if (r.type === 'local-candidate' || r.type === 'remote-candidate') kinds.push(`${r.type}:${r.candidateType}`);
      });
      const described = `local ${pc.localDescription?.type ?? 'none'}, remote ${pc.remoteDescription?.type ?? 'none'}, gathering ${pc.iceGatheringState}, transceivers ${pc.getTransceivers().length}`;
      out.push(`${pc.connectionState}/${pc.iceConnectionState}/${pc.signalingState} (${described}) ${kinds.join(',')}`);
    }
    return `${out.join(' | ')} :: ${document.querySelector('[data-testid=call-status]')?.textContent}`;
  });

/** What the page sent and heard of the call's signalling, in order (for a message when the call does not connect). */
function signalLog(page: Page) {
  const log: string[] = [];
  const t0 = Date.now();
  const at = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  page.on('request', (r) => {
    if (r.url().includes('calls.signal')) log.push(`${at()} sent ${(r.postData() ?? '').match(/"kind":"(\w+)"/g)?.join('+') ?? '?'}`);
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes('calls.signal')) log.push(`${at()} send failed: ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.url().includes('calls.signal') && r.status() !== 200) log.push(`${at()} send answered ${r.status()}`);
  });
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      const text = typeof f.payload === 'string' ? f.payload : '';
      const kinds = text.match(/"kind":"(\w+)"/g);
      if (kinds && /appointmentId|signal|ready|left|replaced/.test(text)) log.push(`${at()} heard ${kinds.join('+')}`);
    }),
  );
  return log;
}

/** The most video frames decoded from the other side by any open connection of the page. */
const framesDecoded = (page: Page) =>
  page.evaluate(async () => {
    let most = 0;
    for (const pc of (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((r: Record<string, unknown>) => {
        if (r.type === 'inbound-rtp' && r.kind === 'video') most = Math.max(most, Number(r.framesDecoded ?? 0));
      });
    }
    return most;
  });

async function appointmentStartingIn(minutes: number, clientId: number, dietitianId: number) {
  const startsAt = new Date(Date.now() + minutes * 60_000);
  const endsAt = new Date(startsAt.getTime() + 30 * 60_000);
  const row = await server.deps.db
    .insertInto('appointments')
    .values({ client_id: clientId, dietitian_id: dietitianId, kind: 'follow_up', starts_at: startsAt, ends_at: endsAt, busy_until: endsAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('a call between a client and a dietitian', () => {
  it('connects both sides with video, shows mute and camera off across, and keeps everyone else out', async () => {
    const asha = await newClient(server, { firstName: 'Asha', lastName: 'Verma' });
    const meera = await server.user({ role: 'admin', firstName: 'Meera', lastName: 'Iyer' });
    const id = await appointmentStartingIn(5, asha.id, meera.id);
    await server.deps.db
      .insertInto('call_settings')
      .values({ dietitian_id: meera.id, fallback_url: 'https://meet.example.org/meera' })
      .execute();

    const phone = await signedInPage(browser, server, asha, { viewport: PHONE });
    const desk = await signedInPage(browser, server, { ...meera, fullName: 'Meera Iyer' }, { viewport: DESKTOP });
    // The fake camera and microphone, allowed for both (Playwright answers permission prompts itself).
    await Promise.all([phone.context.grantPermissions(['camera', 'microphone']), desk.context.grantPermissions(['camera', 'microphone'])]);
    await Promise.all([watchPeerConnections(phone.page), watchPeerConnections(desk.page)]);
    const phoneSignals = signalLog(phone.page);
    const deskSignals = signalLog(desk.page);
    await Promise.all([phone.page.goto(`/call/${id}`, { timeout: 30_000 }), desk.page.goto(`/call/${id}`, { timeout: 30_000 })]);
    await expect.poll(() => phone.page.getByRole('heading', { name: 'Follow-up with Meera' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => desk.page.getByRole('heading', { name: 'Follow-up with Asha' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await phone.page.getByTestId('fallback-link').getAttribute('href')).toBe('https://meet.example.org/meera');
    await screenshot(phone.page, 'call-lobby');

    await desk.page.getByRole('button', { name: 'Join call' }).click();
    await expect.poll(() => desk.page.getByTestId('call-status').textContent(), { timeout: 15_000 }).toBe('Waiting for Asha to join…');
    await phone.page.getByRole('button', { name: 'Join call' }).click();

    // Both see the other's video: frames decoded on each side.
    const connected = async () => (await framesDecoded(phone.page)) > 0 && (await framesDecoded(desk.page)) > 0;
    await expect
      .poll(connected, { timeout: 40_000 })
      .toBe(true)
      .catch(async (err: Error) => {
        throw new Error(
          `${err.message}\nclient: ${await peerStates(phone.page)}\ndietitian: ${await peerStates(desk.page)}` +
            `\nclient's signals: ${phoneSignals.join('; ')}\ndietitian's signals: ${deskSignals.join('; ')}`,
        );
      });
    await expect.poll(() => phone.page.getByTestId('call-status').textContent(), { timeout: 15_000 }).toBe('Connected');
    await expect.poll(() => desk.page.getByTestId('call-status').textContent(), { timeout: 15_000 }).toBe('Connected');

    // The client mutes: the dietitian sees "Muted"; unmutes: it goes.
    await phone.page.getByRole('button', { name: 'Mute microphone' }).click();
    await expect.poll(() => desk.page.getByTestId('remote-muted').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await phone.page.getByRole('button', { name: 'Unmute microphone' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(desk.page, 'call-in-progress');
    await screenshot(phone.page, 'call-in-progress');
    await phone.page.getByRole('button', { name: 'Unmute microphone' }).click();
    await expect.poll(() => desk.page.getByTestId('remote-muted').count(), { timeout: 10_000 }).toBe(0);

    // The dietitian turns the camera off: the client sees it.
    await desk.page.getByRole('button', { name: 'Turn camera off' }).click();
    await expect.poll(() => phone.page.getByTestId('remote-camera-off').isVisible(), { timeout: 10_000 }).toBe(true);
    await desk.page.getByRole('button', { name: 'Turn camera on' }).click();
    await expect.poll(() => phone.page.getByTestId('remote-camera-off').count(), { timeout: 10_000 }).toBe(0);

    // The device choice lists the fake camera and microphone.
    await desk.page.getByRole('button', { name: 'Camera and microphone settings' }).click();
    expect(await desk.page.getByLabel('Camera').locator('option').count()).toBeGreaterThan(0);

    // A third account: another client is told there is no such call; another dietitian cannot take the place.
    const ravi = await newClient(server, { firstName: 'Ravi', lastName: 'Kumar' });
    const third = await signedInPage(browser, server, ravi, { viewport: PHONE });
    await third.page.goto(`/call/${id}`, { timeout: 30_000 });
    await expect.poll(() => third.page.getByRole('heading', { name: 'Call not found' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await third.page.getByRole('alert').textContent()).toContain('(404)');
    await screenshot(third.page, 'call-not-found');
    third.errors.length = 0; // the browser logs the 404 it was answered
    const anil = await server.user({ role: 'admin', firstName: 'Anil', lastName: 'Shah' });
    const other = await signedInPage(browser, server, { ...anil, fullName: 'Anil Shah' }, { viewport: DESKTOP });
    await other.context.grantPermissions(['camera', 'microphone']);
    await watchPeerConnections(other.page);
    await other.page.goto(`/call/${id}`, { timeout: 30_000 });
    await other.page.getByRole('button', { name: 'Join call' }).click();
    await expect
      .poll(() => other.page.getByRole('alert').first().textContent(), { timeout: 15_000 })
      .toContain('Another dietitian is already in this call.');
    other.errors.length = 0;
    expect(await framesDecoded(other.page)).toBe(0);

    // The dietitian leaves; the client is told, and the dietitian writes the session's notes.
    await desk.page.getByRole('button', { name: 'Leave call' }).click();
    await expect
      .poll(() => phone.page.getByTestId('call-status').textContent(), { timeout: 10_000 })
      .toBe('Meera left the call. They can join again.');
    await desk.page.getByLabel('Notes on this session').fill('Energy better; keep the millet breakfast. Review iron next time.');
    await desk.page.getByRole('button', { name: 'Save notes' }).click();
    await expectToast(desk.page, 'Session notes saved.');
    await screenshot(desk.page, 'call-after');
    // The client's page has no notes at all.
    expect(await phone.page.getByText('Session notes').count()).toBe(0);

    expect(phone.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
    await Promise.all([phone.context.close(), desk.context.close(), third.context.close(), other.context.close()]);
  }, 180_000);

  it('connects even when a signal is lost on the way: a stalled side starts the connection afresh', async () => {
    const asha = await newClient(server, { firstName: 'Lata', lastName: 'Menon' });
    const meera = await server.user({ role: 'admin', firstName: 'Nisha', lastName: 'Pillai' });
    const id = await appointmentStartingIn(5, asha.id, meera.id);
    const phone = await signedInPage(browser, server, asha, { viewport: PHONE });
    const desk = await signedInPage(browser, server, { ...meera, fullName: 'Nisha Pillai' }, { viewport: DESKTOP });
    await Promise.all([phone.context.grantPermissions(['camera', 'microphone']), desk.context.grantPermissions(['camera', 'microphone'])]);
    await Promise.all([watchPeerConnections(phone.page), watchPeerConnections(desk.page)]);
    // Every offer or answer the client's page sends is lost on the way, until the dietitian's page has waited a while.
    let dropping = true;
    let dropped = 0;
    await phone.page.route('**/trpc/calls.signal**', async (route) => {
      if (dropping && /"description"/.test(route.request().postData() ?? '')) {
        dropped += 1;
        await route.abort('connectionreset');
      } else await route.continue();
    });
    await Promise.all([phone.page.goto(`/call/${id}`, { timeout: 30_000 }), desk.page.goto(`/call/${id}`, { timeout: 30_000 })]);
    await expect.poll(() => desk.page.getByRole('button', { name: 'Join call' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await desk.page.getByRole('button', { name: 'Join call' }).click();
    await expect.poll(() => desk.page.getByTestId('call-status').textContent(), { timeout: 15_000 }).toBe('Waiting for Lata to join…');
    await expect.poll(() => phone.page.getByRole('button', { name: 'Join call' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await phone.page.getByRole('button', { name: 'Join call' }).click();
    await expect.poll(() => dropped, { timeout: 15_000 }).toBeGreaterThan(0);
    // Lost: neither side connects.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await framesDecoded(desk.page)).toBe(0);
    dropping = false;
    // No reload, no click: the stalled side starts again and both see each other.
    const connected = async () => (await framesDecoded(phone.page)) > 0 && (await framesDecoded(desk.page)) > 0;
    await expect
      .poll(connected, { timeout: 40_000 })
      .toBe(true)
      .catch(async (err: Error) => {
        throw new Error(`${err.message}\nclient: ${await peerStates(phone.page)}\ndietitian: ${await peerStates(desk.page)}`);
      });
    phone.errors.splice(0, phone.errors.length, ...phone.errors.filter((e) => !e.includes('ERR_CONNECTION_RESET')));
    expect(phone.errors).toEqual([]);
    expect(desk.errors).toEqual([]);
    await Promise.all([phone.context.close(), desk.context.close()]);
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/session.js';
import { insertPasswordReset } from '../../server/auth/repo.js';
import { issueSession, newToken } from '../../server/auth/sessions-repo.js';
import { startSecondInstance, startTestServer, type TestServer, type TestUser } from '../helpers/server.js';
import { AUTH_TEST_ENV, freshIp, fromIp } from '../helpers/sign-in.js';

/**
 * Revoking a user's sessions while some of them are being refreshed, on two
 * instances of one database: once the owner is told the other sign-ins have
 * ended, no session of those sign-ins works, whichever instance it is shown
 * to, and no refresh started after that renews one. Each round races several
 * refresh loops (one per sign-in, each going back and forth between the two
 * instances) against one revocation.
 */
/** PGlite runs one transaction at a time, so the race cannot happen there: fewer rounds. */
const rounds = () => (server.deps.dbHandle.kind === 'postgres' ? 6 : 2);
const LOOPS = 3;
/** Refreshes each loop makes before the revocation is sent, so that it lands among them. */
const WARM_UP = 2;
/** Refreshes after the answer that a loop of a sign-in that must survive makes before it stops. */
const AFTERWARDS = 3;
const ENV = { ...AUTH_TEST_ENV, RATE_LIMIT_REFRESH_SIGN_IN: '100000/1m', RATE_LIMIT_REFRESH_IP: '100000/1m' };

let server: TestServer;
let second: { url: string; stop(): Promise<void> };
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer(ENV);
  second = await startSecondInstance(server, ENV);
  admin = await server.user({ role: 'admin' });
}, 60_000);
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

type Tokens = { token: string; refreshToken: string };

async function call(base: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { ...fromIp(freshIp()) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * A sign-in refreshed over and over, alternating instances, until it is
 * refused (or, for one that must survive, a few refreshes after `told`).
 * Records every pair of tokens it was given, and any refresh that started
 * after `told` and still renewed.
 */
function refreshLoop(first: Tokens, index: number, race: { told: boolean; warmed: () => void }, mustEnd: boolean) {
  const issued: Tokens[] = [first];
  const lateRenewals: string[] = [];
  let refusedAfterTold = false;
  const done = (async () => {
    let current = first;
    let afterwards = 0;
    for (let n = 0; ; n++) {
      const base = (n + index) % 2 === 0 ? server.url : second.url;
      const startedAfterTold = race.told;
      const res = await call(base, 'POST', '/api/auth/refresh-token', { body: { refreshToken: current.refreshToken } });
      if (n + 1 === WARM_UP) race.warmed();
      if (res.status !== 200) {
        expect(res.status, JSON.stringify(res.body)).toBe(401);
        refusedAfterTold = startedAfterTold;
        return;
      }
      current = { token: res.body.data.token, refreshToken: res.body.data.refreshToken };
      issued.push(current);
      if (startedAfterTold && mustEnd) lateRenewals.push(base === server.url ? 'first instance' : 'second instance');
      if (startedAfterTold && ++afterwards >= AFTERWARDS) return;
    }
  })();
  return { issued, lateRenewals, done, latest: () => issued.at(-1)!, refusedAfterTold: () => refusedAfterTold };
}

/** Which of these tokens still work as a bearer token on either instance. */
async function workingBearers(tokens: Tokens[]) {
  const checks = tokens.flatMap((t, i) =>
    [server.url, second.url].map(async (base) => {
      const res = await call(base, 'GET', '/api/auth/check-authorization', { token: t.token });
      if (res.status !== 200) expect(res.status).toBe(401);
      return res.status === 200 ? `token #${i} on ${base === server.url ? 'the first' : 'the second'} instance` : null;
    }),
  );
  return (await Promise.all(checks)).filter((w) => w !== null);
}

const familyOf = async (token: string) =>
  (await server.deps.db.selectFrom('sessions').select('family_id').where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow())
    .family_id;

type Scenario = {
  /** Revokes, and returns the owner's answer. */
  revoke(user: TestUser, target: Tokens, round: number): Promise<{ status: number; message: string }>;
  expected: RegExp;
  /** Every sign-in but the owner's own ends (true), or only `target` (false). */
  endsAllOthers: boolean;
  /** The owner's own sign-in survives. */
  ownSurvives: boolean;
};

const trpc = async (base: string, path: string, token: string, input: unknown) => {
  const res = await call(base, 'POST', `/trpc/${path}`, { token, body: { json: input } });
  return { status: res.status, message: res.body?.result?.data?.json?.message ?? res.body?.error?.json?.message };
};
const instance = (round: number) => (round % 2 === 0 ? server.url : second.url);

const scenarios: Record<string, Scenario> = {
  'a password change': {
    revoke: (user, _target, round) =>
      trpc(instance(round), 'auth.changePassword', user.token, {
        currentPassword: user.password,
        newPassword: `changed-${user.password}`,
        confirmPassword: `changed-${user.password}`,
      }),
    expected: /Other devices have been signed out/,
    endsAllOthers: true,
    ownSurvives: true,
  },
  'signing one device out': {
    revoke: async (user, target, round) => trpc(instance(round), 'auth.signOutDevice', user.token, { id: await familyOf(target.token) }),
    expected: /That device has been signed out/,
    endsAllOthers: false,
    ownSurvives: true,
  },
  'a password reset': {
    async revoke(user, _target, round) {
      // The link's token as forgot-password stores it (which instance mails it is not what this test is about).
      const token = newToken();
      await insertPasswordReset(server.deps.db, user.id, token, new Date(Date.now() + 60_000));
      const res = await call(instance(round), 'POST', '/api/auth/reset-password', {
        body: { token, password: `reset-${user.password}` },
      });
      return { status: res.status, message: res.body?.message };
    },
    expected: /Your password has been changed/,
    endsAllOthers: true,
    ownSurvives: false,
  },
  deactivation: {
    revoke: (user, _target, round) => trpc(instance(round), 'admin.clients.setActive', admin.token, { id: user.id, active: false }),
    expected: /./,
    endsAllOthers: true,
    ownSurvives: false,
  },
};

describe('revoking sessions while they are being refreshed, on two instances', () => {
  it.each(Object.keys(scenarios))(
    'after %s, no session of the ended sign-ins works',
    async (name) => {
      const scenario = scenarios[name]!;
      const failedRounds: string[] = [];
      for (let round = 0; round < rounds(); round++) {
        const user = await server.user();
        const others = await Promise.all(Array.from({ length: LOOPS }, () => issueSession(server.deps.db, user.id)));
        let warmed = 0;
        let allWarm!: () => void;
        const warm = new Promise<void>((resolve) => {
          allWarm = resolve;
        });
        const race = { told: false, warmed: () => ++warmed === LOOPS && allWarm() };
        const loops = others.map((tokens, i) => refreshLoop(tokens, i, race, scenario.endsAllOthers || i === 0));
        await warm;
        const answer = await scenario.revoke(user, loops[0]!.latest(), round).finally(() => {
          race.told = true;
        });
        await Promise.all(loops.map((l) => l.done));
        expect(answer.status, answer.message).toBe(200);
        expect(answer.message).toMatch(scenario.expected);

        const problems: string[] = [];
        const ended = scenario.endsAllOthers ? loops : [loops[0]!];
        for (const [i, loop] of ended.entries()) {
          if (loop.lateRenewals.length > 0) problems.push(`sign-in ${i} was renewed after the answer (on the ${loop.lateRenewals[0]}, …)`);
          // A renewal that raced the revocation leaves its own new session live; older ones were in the revocation's snapshot.
          const working = await workingBearers(loop.issued.slice(-3));
          if (working.length > 0) problems.push(`sign-in ${i}: ${working.length} bearer checks passed (${working[0]}, …)`);
          const last = await call(server.url, 'POST', '/api/auth/refresh-token', { body: { refreshToken: loop.latest().refreshToken } });
          if (last.status !== 401) problems.push(`sign-in ${i}: its newest refresh token still renews (${last.status})`);
        }
        if (!scenario.endsAllOthers) {
          for (const loop of loops.slice(1)) {
            expect(loop.refusedAfterTold(), 'a sign-in that was not signed out was refused').toBe(false);
            expect(await workingBearers([loop.latest()])).toHaveLength(2);
          }
        }
        const own = await call(server.url, 'GET', '/api/auth/check-authorization', { token: user.token });
        expect(own.status).toBe(scenario.ownSurvives ? 200 : 401);
        if (problems.length > 0) failedRounds.push(`round ${round + 1}: ${problems.join('; ')}`);
      }
      expect(failedRounds, `${failedRounds.length} of ${rounds()} rounds failed`).toEqual([]);
    },
    240_000,
  );
});

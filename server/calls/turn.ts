import { createHmac } from 'node:crypto';
import type { IceServer } from '../env.js';

/**
 * TURN credentials in coturn's REST-API scheme ("use-auth-secret"): the
 * username is `<expiry unix seconds>:<user id>` and the password is
 * base64(HMAC-SHA1(static-auth-secret, username)). coturn checks the HMAC with
 * the same secret and refuses the username once its time has passed, so
 * nothing is shared with it per call and nothing lasts beyond the call.
 */
export function turnCredentials(secret: string, userId: number | string, expiresAt: Date): { username: string; credential: string } {
  const username = `${Math.floor(expiresAt.getTime() / 1000)}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

const isTurn = (url: string) => /^turns?:/i.test(url);

/**
 * The servers one person is handed for one call: STUN as configured, TURN
 * with its fixed credentials when ICE_SERVERS has them, else with ones made
 * from TURN_SECRET that expire with the call. A TURN server with neither is
 * left out (it would only fail).
 */
export function iceServersFor(servers: IceServer[], secret: string | undefined, userId: number | string, expiresAt: Date): IceServer[] {
  const made = secret ? turnCredentials(secret, userId, expiresAt) : null;
  const out: IceServer[] = [];
  for (const server of servers) {
    const turn = server.urls.filter(isTurn);
    const stun = server.urls.filter((u) => !isTurn(u));
    if (turn.length === 0 || (server.username && server.credential)) {
      out.push(server);
      continue;
    }
    if (stun.length) out.push({ urls: stun });
    if (made) out.push({ urls: turn, ...made });
  }
  return out;
}

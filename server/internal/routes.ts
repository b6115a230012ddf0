import { type Context, Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { envelope, errorEnvelope } from '../http/envelope.js';
import { readJsonBody } from '../http/json-body.js';
import { requestMeta } from '../http/request-meta.js';
import { bearerToken } from '../trpc/context.js';
import { createUser } from '../users/service.js';
import { tokenMatches } from './token.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a reverse proxy adds: a request carrying one came from outside, even if the proxy runs on this machine. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

function fromThisMachine(c: Context): boolean {
  // The socket's own address: forwarding headers are never trusted here, whatever TRUST_PROXY says.
  const { ip } = requestMeta(c, false);
  return LOOPBACK.has(ip) && PROXY_HEADERS.every((h) => c.req.header(h) === undefined);
}

/**
 * Routes for local commands while the server holds the embedded database
 * (server/cli/*). Two locks on the door: the request must come over loopback
 * without proxy headers, and carry the secret the server wrote to
 * DATA_DIR/internal-token. Anything else looks like a path that does not exist.
 */
export function internalRoutes(deps: AppDeps, token: string) {
  const app = new Hono();
  app.use('*', async (c, next) => {
    if (!fromThisMachine(c)) return envelope(c, 404, 'Not found');
    if (!tokenMatches(bearerToken(c.req.header('authorization')), token)) {
      return envelope(c, 401, 'The internal token is missing or wrong: read it from DATA_DIR/internal-token.');
    }
    await next();
  });

  app.post('/users', async (c) => {
    try {
      const body = await readJsonBody(c);
      const user = await createUser(deps.db, body as Parameters<typeof createUser>[1]);
      deps.logger.info('account created by a local command', { id: user.id, role: user.role });
      return envelope(c, 201, 'Account created', user);
    } catch (error) {
      return errorEnvelope(c, error, { logger: deps.logger, what: 'internal user creation' });
    }
  });

  app.all('*', (c) => envelope(c, 404, 'Not found'));
  return app;
}

import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { describeError } from '../errors.js';
import { bearerToken } from '../trpc/context.js';
import { createUser } from '../users/service.js';
import { tokenMatches } from './token.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Headers a reverse proxy adds: a request carrying one came from outside, even if the proxy runs on this machine. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

function fromThisMachine(c: Context): boolean {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    return false;
  }
  return address !== undefined && LOOPBACK.has(address) && PROXY_HEADERS.every((h) => c.req.header(h) === undefined);
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
    if (!fromThisMachine(c)) return c.json({ status: 404, message: 'Not found' }, 404);
    if (!tokenMatches(bearerToken(c.req.header('authorization')), token)) {
      return c.json({ status: 401, message: 'The internal token is missing or wrong: read it from DATA_DIR/internal-token.' }, 401);
    }
    await next();
  });

  app.post('/users', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ status: 400, message: 'The request body must be valid JSON.' }, 400);
    }
    try {
      const user = await createUser(deps.db, body as Parameters<typeof createUser>[1]);
      deps.logger.info('account created by a local command', { id: user.id, role: user.role });
      return c.json({ status: 201, message: 'Account created', data: user }, 201);
    } catch (error) {
      const d = describeError(error, true);
      if (d.status >= 500) deps.logger.error('internal user creation failed', { error: String((error as Error)?.cause ?? error) });
      return c.json(
        { status: d.status, message: d.message, ...(d.fieldErrors ? { data: { fieldErrors: d.fieldErrors } } : {}) },
        d.status as 400,
      );
    }
  });

  app.all('*', (c) => c.json({ status: 404, message: 'Not found' }, 404));
  return app;
}

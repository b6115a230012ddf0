/**
 * The real server as `npm start` runs it (createDeps + listen), for the
 * bench's child processes: production settings, errors-only logging, a fresh
 * secret and VAPID key pair (production requires them), and no per-address cap the bench's thousands of local sockets would hit.
 */
import { randomBytes } from 'node:crypto';
import webPush from 'web-push';
import { loadConfig } from '../../server/env.js';
import { createDeps, listen, openDatabase } from '../../server/server.js';

export async function startBenchApp() {
  const vapid = webPush.generateVAPIDKeys();
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
    SEED_DEMO: '0',
    // Every subscriber of the bench comes from 127.0.0.1: lift the per-address cap of open sockets above the largest size.
    WS_MAX_PER_IP: process.env.WS_MAX_PER_IP ?? '100000',
    APP_SECRET: randomBytes(32).toString('hex'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
  });
  const handle = await openDatabase(config);
  const deps = await createDeps(config, handle);
  const server = await listen(deps, { port: 0, host: '127.0.0.1', serveClient: false });
  return { handle, deps, server };
}

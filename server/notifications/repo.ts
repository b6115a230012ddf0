import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** Notification preferences: one row per person and category they changed (no row: both channels on). */

export function preferenceRows(db: Db, userIds: number[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('notification_preferences')
    .select(['user_id', 'category', 'email', 'push'])
    .where('user_id', 'in', userIds)
    .execute();
}

export function savePreferenceRows(db: Db, rows: { user_id: number; category: string; email: boolean; push: boolean }[]) {
  if (rows.length === 0) return Promise.resolve();
  return db
    .insertInto('notification_preferences')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'category']).doUpdateSet((eb) => ({
        email: eb.ref('excluded.email'),
        push: eb.ref('excluded.push'),
        updated_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

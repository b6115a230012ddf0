import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import * as repo from './repo.js';
import {
  DEFAULT_PREFERENCES,
  NOTIFICATION_CATEGORIES,
  type NotificationCategory,
  type NotificationPreferences,
  type SetNotificationPreferencesInput,
} from './schema.js';

/** Each person's preferences, defaults filled in (both channels on where nothing was saved). */
export async function preferencesOf(db: Db, userIds: number[]): Promise<Map<number, NotificationPreferences>> {
  const byUser = new Map<number, NotificationPreferences>();
  for (const id of userIds) byUser.set(id, structuredClone(DEFAULT_PREFERENCES));
  for (const row of await repo.preferenceRows(db, [...new Set(userIds)])) {
    const prefs = byUser.get(row.user_id);
    if (prefs && (NOTIFICATION_CATEGORIES as readonly string[]).includes(row.category))
      prefs[row.category as NotificationCategory] = { email: row.email, push: row.push };
  }
  return byUser;
}

export async function getPreferences(db: Db, actor: SessionUser): Promise<NotificationPreferences> {
  return (await preferencesOf(db, [actor.id])).get(actor.id)!;
}

/** Changes what was sent; the rest keeps its saved value. In one transaction, so a read never sees half a change. */
export async function setPreferences(db: Db, actor: SessionUser, input: SetNotificationPreferencesInput): Promise<NotificationPreferences> {
  const run = async (trx: Db) => {
    const current = (await preferencesOf(trx, [actor.id])).get(actor.id)!;
    const changed = NOTIFICATION_CATEGORIES.filter((c) => input[c]).map((category) => {
      const next = { ...current[category], ...input[category] };
      current[category] = next;
      return { user_id: actor.id, category, email: next.email, push: next.push };
    });
    await repo.savePreferenceRows(trx, changed);
    return current;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

import type { Db } from '../db/index.js';
import { ROLE } from '../auth/roles.js';

export function findActiveClient(db: Db, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'height_m', 'weight_kg'])
    .where('id', '=', id)
    .where('role', '=', ROLE.client)
    .executeTakeFirst();
}

export function setCurrentWeight(db: Db, id: number, weightKg: number | null) {
  return db.updateTable('users').set({ weight_kg: weightKg, updated_at: new Date() }).where('id', '=', id).execute();
}

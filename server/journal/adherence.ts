import type { Db } from '../db/index.js';
import { addDays as shiftDay, dayIn } from '../time.js';
import { weekIntakeOf } from '../nutrition/days.js';
import * as repo from './repo.js';
import { EDITABLE_DAYS, type JournalAdherence } from './schema.js';

/** The follow-up queue's view of journals: per client, days logged among the last 7 (today included), the last day logged, and the week's intake against targets. */
export async function journalAdherence(db: Db, clientIds: readonly number[], now: Date): Promise<Map<number, JournalAdherence>> {
  const today = dayIn(now);
  const [rows, intake] = await Promise.all([
    repo.adherenceOf(db, clientIds, shiftDay(today, -(EDITABLE_DAYS - 1)), today),
    weekIntakeOf(db, clientIds, now),
  ]);
  const weekOf = (clientId: number) => {
    const week = intake.get(clientId);
    return week && week.daysWithFoods > 0 ? week : null;
  };
  return new Map(
    rows.map((r) => [r.client_id, { daysLogged: Number(r.days_logged), lastLogged: r.last_logged ?? null, intake: weekOf(r.client_id) }]),
  );
}

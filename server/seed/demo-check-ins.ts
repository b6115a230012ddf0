import { randomUUID } from 'node:crypto';
import * as repo from '../check-in/repo.js';
import { checkInForm } from '../check-in/schema.js';
import type { Db } from '../db/index.js';
import { serviceInstant } from '../time.js';

/**
 * The weekly check-ins of a client's running plan, on the days of their
 * weigh-ins (a check-in's weight is that day's weight), most with the
 * dietitian's reply: the follow-up queue starts with nobody overdue, and the
 * client's Check-in page has a history to show.
 */

const NOTES = [
  'Felt hungry in the evenings this week.',
  null,
  'Had a birthday party on Saturday, otherwise on plan.',
  'Walked every day!',
  null,
  'Sleep was better this week.',
  'Energy is much better in the afternoons.',
];
const REPLIES = [
  'Add a katori of roasted chana at 5 pm: protein keeps the evening hunger away.',
  'Steady progress. Keep the water up.',
  'One party is fine: you were back on plan the next day, which is what counts.',
  'Fantastic! Keep the walks going.',
  null,
  'Good sleep helps the weight too. Well done.',
  null,
];

export async function seedCheckIns(
  trx: Db,
  opts: { clientId: number; dietitianId: number; weighIns: { date: string; weightKg: number }[]; now: Date },
) {
  for (const [i, weighIn] of opts.weighIns.entries()) {
    const form = checkInForm.parse({ weight: weighIn.weightKg, adherence: 3 + (i % 3), notes: NOTES[i % NOTES.length] });
    const at = new Date(Math.min(serviceInstant(weighIn.date, 8 * 60).getTime(), opts.now.getTime()));
    const row = await repo.insertCheckIn(trx, {
      client_id: opts.clientId,
      date: weighIn.date,
      weight_kg: form.weight,
      adherence: form.adherence,
      notes: form.notes,
      created_at: at,
      client_request_id: randomUUID(),
    });
    if (!row) throw new Error('A demo check-in was not stored');
    const reply = REPLIES[i % REPLIES.length];
    const repliedAt = at.getTime() + 3 * 3_600_000;
    if (reply && repliedAt <= opts.now.getTime()) await repo.setReply(trx, row.id, reply, opts.dietitianId, new Date(repliedAt));
  }
}

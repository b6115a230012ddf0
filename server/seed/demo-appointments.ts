import { randomUUID } from 'node:crypto';
import * as appointmentsRepo from '../appointments/repo.js';
import { type Availability, freeSlots } from '../appointments/slots.js';
import { saveNote } from '../calls/repo.js';
import { saveNotesInput } from '../calls/schema.js';
import type { Db } from '../db/index.js';
import { addDays, mondayOf, serviceDay, serviceInstant, serviceMinute } from '../time.js';

/**
 * Each demo client's sessions: a past follow-up, done, with the dietitian's
 * notes, and the next one booked a day or more ahead (so no reminder is due at
 * start). Both are times the availability offers, within the client's plan
 * and its follow-up allowance, as a booking would have been.
 */

const HOUR_MS = 3_600_000;
/** The next session starts at least this far ahead: a reminder 24 hours before is not due on the first start. */
const UPCOMING_AFTER_MS = 26 * HOUR_MS;

const NOTES = {
  asha: [
    'Weight 72.4 kg (down 0.5 kg in a week); waist 85 cm.',
    'Walking 35 minutes most evenings. Sleep still short on weekdays (6 h).',
    'Struggles with the 5 pm office chai and namkeen. Agreed: roasted makhana or chana instead, tea without sugar.',
    'Thyroid dose unchanged; TSH due next month: ask for the report.',
    'Plan: phase 3 menu, 1.5 rotis at lunch, curd daily. Next: review wedding-week strategy.',
  ].join('\n'),
  rohan: [
    'Weight 64.6 kg (up 0.5 kg). Training 5 days: push/pull/legs.',
    'Protein about 80 g a day against a target of 110 g; breakfast is the gap.',
    'Bloating after milk-based shakes: try with water for a week.',
    'Plan: egg bhurji or paneer at breakfast, dal twice a day, 3.5 L water.',
  ].join('\n'),
};

type Client = { id: number; kind: 'asha' | 'rohan' };

/** The offered follow-up slot at `minute` on `day`, as the availability offers it (no booking in the way). */
function slotAt(availability: Availability, day: string, minute: number) {
  const start = serviceInstant(day, minute);
  const offered = freeSlots({
    availability,
    busy: [],
    kind: 'follow_up',
    fromDay: day,
    toDay: addDays(day, 1),
    now: new Date(start.getTime() - 2 * HOUR_MS),
  });
  return offered.find((s) => s.start.getTime() === start.getTime());
}

/** The first day on or after `from` (going forward) where the availability offers a follow-up at `minute`. */
function pastSlot(availability: Availability, from: string, minute: number, now: Date) {
  for (let day = from; serviceInstant(day, minute).getTime() < now.getTime(); day = addDays(day, 1)) {
    const slot = slotAt(availability, day, minute);
    if (slot) return slot;
  }
  throw new Error(`The demo availability offers no follow-up at minute ${minute} between ${from} and now`);
}

async function insertSession(
  trx: Db,
  opts: { client: Client; dietitianId: number; slot: { start: Date; end: Date }; bufferMinutes: number; bookedAt: Date },
) {
  // A follow-up is part of a running plan (the plan's allowance is one a week, or two a month: the demo books fewer).
  if (!(await appointmentsRepo.subscriptionOn(trx, opts.client.id, serviceDay(opts.slot.start))))
    throw new Error('A demo follow-up falls outside the client’s plan');
  const inserted = await appointmentsRepo.insertAppointment(trx, {
    client_id: opts.client.id,
    consultation_id: null,
    dietitian_id: opts.dietitianId,
    kind: 'follow_up',
    starts_at: opts.slot.start,
    ends_at: opts.slot.end,
    busy_until: new Date(opts.slot.end.getTime() + opts.bufferMinutes * 60_000),
    booked_by: opts.client.id,
    client_request_id: randomUUID(),
    timed_at: opts.bookedAt,
  });
  if (!inserted) throw new Error('A demo appointment was not stored');
  return inserted.id;
}

export async function seedAppointments(
  trx: Db,
  opts: {
    dietitianId: number;
    availability: Availability;
    /** Each client, the minute of the day they like their sessions at, and the first day their past session may be on. */
    clients: { client: Client; minute: number; pastFrom: string }[];
    today: string;
    now: Date;
  },
) {
  const { availability, now } = opts;
  const buffer = availability.settings.bufferMinutes;
  const taken: { start: Date; end: Date }[] = [];
  for (const { client, minute, pastFrom } of opts.clients) {
    const done = pastSlot(availability, pastFrom, minute, now);
    const doneId = await insertSession(trx, {
      client,
      dietitianId: opts.dietitianId,
      slot: done,
      bufferMinutes: buffer,
      bookedAt: new Date(done.start.getTime() - 3 * 24 * HOUR_MS),
    });
    await appointmentsRepo.setStatus(trx, doneId, 'done', new Date(done.end.getTime() + 5 * 60_000));
    const { body } = saveNotesInput.parse({ appointmentId: doneId, body: NOTES[client.kind] });
    await saveNote(trx, {
      appointmentId: doneId,
      clientId: client.id,
      authorId: opts.dietitianId,
      body,
      now: new Date(done.end.getTime() + 10 * 60_000),
    });

    // The next session: the first free time from a day ahead, near the client's usual time, in another week than the last one.
    const earliest = now.getTime() + UPCOMING_AFTER_MS;
    const upcoming = freeSlots({
      availability,
      busy: taken.map((t) => ({ start: t.start, end: new Date(t.end.getTime() + buffer * 60_000) })),
      kind: 'follow_up',
      fromDay: opts.today,
      toDay: addDays(opts.today, 14),
      now,
    }).find(
      (s) =>
        s.start.getTime() >= earliest &&
        Math.abs(serviceMinute(s.start) - minute) <= 90 &&
        mondayOf(serviceDay(s.start)) !== mondayOf(serviceDay(done.start)),
    );
    if (!upcoming) throw new Error('The demo availability has no free follow-up in the next two weeks');
    await insertSession(trx, {
      client,
      dietitianId: opts.dietitianId,
      slot: upcoming,
      bufferMinutes: buffer,
      bookedAt: new Date(now.getTime() - 20 * HOUR_MS),
    });
    taken.push(upcoming);
  }
}

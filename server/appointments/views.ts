import { ROLE } from '../auth/roles.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { notFound } from '../errors.js';
import { mailSafeName } from '../consultation/schema.js';
import type { MailAppointment } from './mails.js';
import * as repo from './repo.js';
import { type AppointmentView, CLIENT_CHANGE_HOURS, CLIENT_GRACE_MINUTES } from './schema.js';
import { wallClock } from './slots.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import { APPOINTMENT_MISSING, HOUR_MS, callPathOf } from './shared.js';

/* Views. */

export function toMailAppointment(r: repo.AppointmentRow): MailAppointment {
  return {
    id: r.id,
    kind: r.kind,
    start: r.starts_at,
    end: r.ends_at,
    dietitianName: fullNameOf({ first_name: r.dietitian_first, last_name: r.dietitian_last }),
    dietitianEmail: r.dietitian_email,
    sequence: Math.floor(r.updated_at.getTime() / 1000) - 1_700_000_000,
    callPath: callPathOf(r.id),
  };
}

export const personOf = (r: repo.AppointmentRow) =>
  r.client_first !== null
    ? {
        name: fullNameOf({ first_name: r.client_first, last_name: r.client_last ?? '' }),
        firstName: r.client_first,
        email: r.client_email ?? '',
      }
    : // A visitor typed their own name: mails print it only when no mail client could make a link of it.
      {
        name: mailSafeName(r.visitor_name ?? '', 'Visitor') || 'Visitor',
        firstName: mailSafeName(r.visitor_name ?? '', '').split(/\s+/)[0] || 'there',
        email: r.visitor_email ?? '',
      };

/**
 * Until when the client may move or cancel: CLIENT_CHANGE_HOURS before the start, or, for a session she booked
 * herself already inside that window (today's), CLIENT_GRACE_MINUTES after its time was set (timed_at: the
 * booking or the last move; created_at is the database's clock, not the service's).
 */
export const changeableUntil = (r: repo.AppointmentRow) => {
  const rule = new Date(r.starts_at.getTime() - CLIENT_CHANGE_HOURS * HOUR_MS);
  if (r.client_id === null || r.booked_by !== r.client_id || r.timed_at.getTime() <= rule.getTime()) return rule;
  return new Date(Math.min(r.timed_at.getTime() + CLIENT_GRACE_MINUTES * 60_000, r.starts_at.getTime()));
};

export function toView(r: repo.AppointmentRow, actor: SessionUser | null, tz: string, now: Date): AppointmentView {
  const isDietitian = actor?.role === ROLE.admin;
  const until = changeableUntil(r);
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    start: r.starts_at,
    end: r.ends_at,
    local: wallClock(r.starts_at, tz),
    india: wallClock(r.starts_at, SERVICE_TIME_ZONE),
    dietitianId: r.dietitian_id,
    dietitianName: fullNameOf({ first_name: r.dietitian_first, last_name: r.dietitian_last }),
    clientId: r.client_id,
    consultationId: r.consultation_id,
    personName: personOf(r).name,
    callPath: callPathOf(r.id),
    changeableUntil: until,
    canChange: r.status === 'booked' && (isDietitian || now.getTime() < until.getTime()),
    cancelReason: r.cancel_reason,
    cancelledAt: r.cancelled_at,
  };
}

/** The appointment if the actor may see it: its client, or any dietitian; 404 for anyone else (nothing is revealed). */
export async function appointmentFor(db: Db, actor: SessionUser, id: number) {
  const row = await repo.findAppointment(db, id);
  if (!row || (actor.role !== ROLE.admin && row.client_id !== actor.id)) throw notFound(APPOINTMENT_MISSING);
  return row;
}

import { publicBaseUrl } from '../http/public-url.js';
import type { Db } from '../db/index.js';
import { type Mail, recordMail } from '../mail/mailer.js';
import { recordNotices, type UserNotice } from '../notifications/notify.js';
import { appointmentMail, dietitianMail, type MailEvent } from './mails.js';
import { guestCallLink } from '../calls/guest-link.js';
import { publishAppointmentChange } from './events.js';
import type * as repo from './repo.js';
import type { AppointmentDeps } from './shared.js';
import { personOf, toMailAppointment } from './views.js';

/* Telling people. */

export type Told = {
  event: Exclude<MailEvent, 'reminder-24h' | 'reminder-1h'>;
  by: 'client' | 'dietitian' | 'visitor';
  tz?: string;
  message?: string | null;
  previousStart?: Date;
};

/**
 * Records the mails (and, for account holders, pushes) of a booking, move or cancellation in the deciding
 * transaction; returns what to run once it commits. The person hears of every change; the dietitian hears
 * of the ones they did not make themselves.
 */
export async function recordTelling(trx: Db, deps: AppointmentDeps, r: repo.AppointmentRow, told: Told): Promise<() => void> {
  const publicUrl = publicBaseUrl(deps);
  const a = toMailAppointment(r);
  const person = personOf(r);
  const key = `appointment:${r.id}:${told.event}:${r.updated_at.getTime()}`;
  // A visitor has no account: their mail carries the call's guest link instead of the signed-in call page.
  const guest =
    r.client_id === null && told.event !== 'cancelled' && deps.secret
      ? await guestCallLink(trx, deps.secret, { id: r.id, endsAt: r.ends_at }, { baseUrl: publicUrl, now: deps.clock() })
      : null;
  const mail = appointmentMail({
    event: told.event,
    to: person.email,
    name: person.firstName,
    appointment: a,
    timeZone: told.tz,
    publicUrl,
    message: told.message,
    previousStart: told.previousStart,
    visitor: r.client_id === null,
    callUrl: guest?.url,
  });
  const titles = { booked: 'Appointment booked', moved: 'Appointment moved', cancelled: 'Appointment cancelled' } as const;
  const notices: UserNotice[] = [];
  const loose: Mail[] = [];
  if (r.client_id !== null) {
    notices.push({
      userId: r.client_id,
      category: 'appointments',
      key: `${key}:client`,
      push: { title: titles[told.event], body: `${a.dietitianName}, ${mail.subject.toLowerCase()}`, path: '/dashboard/appointments' },
      mail,
    });
  } else if (person.email) {
    // A visitor has no account (no preferences, no devices): their mail goes to the outbox directly.
    loose.push(mail);
  }
  if (told.by !== 'dietitian') {
    notices.push({
      userId: r.dietitian_id,
      category: 'appointments',
      key: `${key}:dietitian`,
      push: { title: titles[told.event], body: `${person.name}: ${titles[told.event].toLowerCase()}`, path: '/admin/appointments' },
      mail: dietitianMail({
        event: told.event,
        to: r.dietitian_email,
        dietitianName: r.dietitian_first,
        personName: person.name,
        appointment: a,
        publicUrl,
      }),
    });
  }
  const deliverNotices = await recordNotices(trx, deps, notices);
  // Open screens (the client's page, the console's calendar and today's list) hear of it when this commits.
  await publishAppointmentChange(trx, r, told.event);
  const recorded = await Promise.all(loose.map(async (m) => ({ m, at: await recordMail(trx, m) })));
  return () => {
    deliverNotices();
    for (const { m, at } of recorded) deps.mailer.deliverRecorded(at, m);
  };
}

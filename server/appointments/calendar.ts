import { clientToActFor } from '../auth/guards.js';
import { publicBaseUrl } from '../http/public-url.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import { appointmentIcs } from './mails.js';
import * as repo from './repo.js';
import { addDays, SERVICE_TIME_ZONE, serviceDay, serviceInstant } from '../time.js';
import { entitlementOf } from './entitlement.js';
import type { AppointmentDeps } from './shared.js';
import { appointmentFor, personOf, toMailAppointment, toView } from './views.js';

/** A client's appointments (upcoming first, soonest first; then the past) and what their plan still includes. */
export async function myAppointments(deps: AppointmentDeps, actor: SessionUser, input: { tz?: string; clientId?: number }) {
  const now = deps.clock();
  const tz = input.tz ?? SERVICE_TIME_ZONE;
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  const [rows, entitlement] = await Promise.all([repo.listForClient(deps.db, clientId), entitlementOf(deps.db, clientId, now)]);
  const views = rows.map((r) => toView(r, actor, tz, now));
  const upcoming = views
    .filter((v) => v.status === 'booked' && v.end.getTime() > now.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  const past = views.filter((v) => !upcoming.includes(v));
  return { timeZone: tz, upcoming, past, entitlement };
}

/** The appointment's .ics (a cancellation when it was cancelled), for its client or a dietitian. */
export async function icsOf(deps: AppointmentDeps, actor: SessionUser, id: number) {
  const row = await appointmentFor(deps.db, actor, id);
  const person = personOf(row);
  return appointmentIcs(toMailAppointment(row), {
    cancelled: row.status === 'cancelled',
    publicUrl: publicBaseUrl(deps),
    attendee: person.email ? { name: person.name, email: person.email } : undefined,
  });
}

/* The console. */

/** Every dietitian's appointments on the India-time days [from, from + days). */
export async function calendar(deps: AppointmentDeps, actor: SessionUser, input: { from: string; days: number }) {
  const now = deps.clock();
  const [rows, dietitians] = await Promise.all([
    repo.listInRange(deps.db, serviceInstant(input.from, 0), serviceInstant(addDays(input.from, input.days), 0)),
    repo.listDietitians(deps.db),
  ]);
  return {
    from: input.from,
    days: input.days,
    dietitians: dietitians.map((d) => ({ id: d.id, name: fullNameOf(d) })),
    appointments: rows.map((r) => toView(r, actor, SERVICE_TIME_ZONE, now)),
  };
}

/** Today's appointments (India time) for the overview, cancelled ones left out. */
export async function today(deps: AppointmentDeps, actor: SessionUser) {
  const now = deps.clock();
  const day = serviceDay(now);
  const rows = await repo.listInRange(deps.db, serviceInstant(day, 0), serviceInstant(addDays(day, 1), 0));
  return { day, appointments: rows.filter((r) => r.status !== 'cancelled').map((r) => toView(r, actor, SERVICE_TIME_ZONE, now)) };
}

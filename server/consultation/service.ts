import { publicFormLimits, takeSlot } from '../auth/rate-limit.js';
import { BRAND } from '../brand.js';
import { formatMoment, formatPhone } from '../format.js';
import { SERVICE_TIME_ZONE } from '../time.js';
import { requestReceivedMail } from './mails.js';
import { findCountry } from '../countries/repo.js';
import type { AppDeps } from '../deps.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { changedFields, recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import { mapPage } from '../db/paging.js';
import type { ConsultationStatus } from '../db/schema.js';
import { splitFullName } from '../users/service.js';
import { heightTextToMetres } from './height.js';
import { oneLine } from '../support/service.js';
import type { RequestMeta } from '../http/request-meta.js';
import * as repo from './repo.js';
import {
  confirmHeldTime,
  consultationSlotOffer,
  consultationTaken,
  type PlacedHold,
  placeConsultationHold,
  releaseHoldOf,
  SlotTaken,
  toMailAppointment,
  visitorMoment,
} from '../appointments/service.js';
import { findHold, lockHold, lockHoldOfConsultation } from '../appointments/holds-repo.js';
import { findAppointment, isTimeTaken } from '../appointments/repo.js';
import { appointmentIcs } from '../appointments/mails.js';
import { guestCallLink } from '../calls/guest-link.js';
import { checkHoldLink, signHoldLink } from '../appointments/hold-link.js';
import { publicBaseUrl } from '../http/public-url.js';
import {
  BOOKING_STATUS_LABELS,
  BOOKING_TRANSITIONS,
  type BookConsultationInput,
  type Booking,
  CHOOSE_A_COUNTRY,
  type ConfirmHoldInput,
  genderLabel,
  HOLD_MINUTES,
  mailSafeName,
  visitorWords,
} from './schema.js';

/**
 * Books a consultation (anyone may: visitors are the point), tells the team
 * by mail, and tells the visitor what happens next. A visitor who books again
 * while their first request is open (same e-mail and contact, within
 * REPEAT_BOOKING_HOURS) is told that it is in hand, and nothing new is stored
 * or mailed; only someone presenting both gets that answer, so it says
 * nothing about anyone else's booking.
 */
export async function bookConsultation(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'clock' | 'secret'>,
  meta: RequestMeta,
  input: BookConsultationInput,
) {
  const country = await findCountry(deps.db, input.country);
  if (!country) throw badRequest(CHOOSE_A_COUNTRY, { country: [CHOOSE_A_COUNTRY] });
  // A chosen slot is checked before anything is stored: a time never offered is 400, a taken one 409.
  const offeredBy = input.slot ? await consultationSlotOffer(deps, input.slot, input.tz) : null;
  await takeSlot(deps.db, 'consultation requests', publicFormLimits(deps.config.rateLimits, 'consultation', meta.ip, input.email));
  let hold: PlacedHold | null = null;
  const booked = await deps.db
    .transaction()
    .execute(async (trx) => {
      await repo.lockBookingsOf(trx, input.email, input.contact);
      const first = await repo.findOpenRepeat(trx, input.email, input.contact);
      if (first) return { ...first, repeated: true };
      const created = await repo.insertConsultation(trx, input);
      // The chosen time is held, not booked, until the visitor confirms it (or a dietitian accepts).
      if (input.slot && offeredBy)
        hold = await placeConsultationHold(trx, deps, {
          consultationId: created.id,
          start: input.slot,
          dietitianIds: offeredBy,
          ip: meta.ip,
          email: input.email,
        });
      return { ...created, repeated: false };
    })
    .catch(async (err) => {
      // Taken meanwhile (by the check in code or the database's constraint): nothing was stored.
      if (input.slot && (err instanceof SlotTaken || isTimeTaken(err))) throw await consultationTaken(deps, input.slot, input.tz);
      throw err;
    });
  if (booked.repeated) {
    return {
      message: repeatBookingMessage(booked.created_at, input.contact),
      data: { id: booked.id },
      repeated: true,
      outcome: 'repeat' as const,
      time: null,
      phone: formatPhone(input.contact),
    };
  }
  const placed = hold as PlacedHold | null;
  await deps.mailer.queue({
    to: BRAND.supportEmail,
    subject: oneLine(`Consultation request #${booked.id} from ${mailSafeName(input.name, 'a visitor')}`),
    text: [
      `Name: ${input.name}`,
      `Email: ${input.email}`,
      `Contact: ${formatPhone(input.contact)}`,
      `Gender: ${genderLabel(input.gender)}`,
      `Age: ${input.age}`,
      `Height: ${input.height} ft`,
      `Weight: ${input.weight} kg`,
      `State: ${input.state}`,
      `Country: ${country.name}`,
      `Medical condition: ${input.isMedicalCondition ? 'Yes' : 'No'}`,
      `Received: ${formatMoment(booked.created_at, SERVICE_TIME_ZONE)}`,
      ...(placed
        ? [
            `Held time: ${visitorMoment(placed.start)}, until ${visitorMoment(placed.expiresAt)} unless the visitor confirms it. Marking the request contacted books it for them.`,
          ]
        : []),
    ].join('\n'),
  });
  const phone = formatPhone(input.contact);
  const state = placed
    ? ({ state: 'held', start: placed.start, heldUntil: placed.expiresAt, phone, tz: input.tz } as const)
    : input.slot
      ? ({ state: 'not-held', start: input.slot, phone, tz: input.tz } as const)
      : ({ state: 'callback', phone } as const);
  await deps.mailer.queue(
    requestReceivedMail({
      to: input.email,
      name: input.name,
      bookingId: booked.id,
      state,
      confirmUrl: placed
        ? signHoldLink(
            deps.secret,
            { id: placed.id, consultationId: booked.id },
            { baseUrl: publicBaseUrl(deps), now: deps.clock().getTime() },
          )
        : undefined,
    }),
  );
  const words = visitorWords(state);
  return {
    message: `${words.title}. ${words.lead}`,
    data: { id: booked.id },
    repeated: false,
    outcome: state.state,
    time: input.slot ? { start: input.slot, heldUntil: placed?.expiresAt ?? null } : null,
    phone,
  };
}

const LINK_INVALID = 'This link is not valid. Open the link from the email again, or wait for our call.';
const LINK_EXPIRED = `This link has expired: the time was held for ${HOLD_MINUTES} minutes. Your request is still with us, and we'll call you to agree a time.`;

/**
 * The visitor confirms their held time from the link in the booking mail (the page's button posts
 * here): the time becomes their appointment, and the appointment mail (with its .ics) follows.
 */
export async function confirmHold(deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'clock' | 'secret'>, input: ConfirmHoldInput) {
  const now = deps.clock();
  const found = await findHold(deps.db, input.hold);
  const check = checkHoldLink(deps.secret, { id: input.hold, consultationId: found?.consultation_id ?? 0 }, input, now.getTime());
  if (!found || !check.ok) {
    const expired = found && !check.ok && check.reason === 'expired';
    throw badRequest(expired ? LINK_EXPIRED : LINK_INVALID, { hold: [expired ? LINK_EXPIRED : LINK_INVALID] });
  }
  const tz = (await repo.timeZoneOf(deps.db, found.consultation_id)) ?? undefined;
  const result = await deps.db
    .transaction()
    .execute(async (trx) => confirmHeldTime(trx, deps, await lockHold(trx, found.id), { by: 'visitor', actor: null, tz }))
    .catch((err) => {
      // Taken in the same instant by a booking the lock did not see: the same answer as taken.
      if (isTimeTaken(err)) return { outcome: 'gone' as const, start: now };
      throw err;
    });
  if (result.outcome === 'confirmed') result.deliver();
  if (result.outcome === 'confirmed' || result.outcome === 'already') {
    const appointment = result.appointment ? await visitorAppointment(deps, result.appointment.id) : null;
    const words = appointment
      ? visitorWords({ state: 'booked', start: appointment.start, dietitianName: appointment.dietitianName, tz })
      : null;
    return {
      message: words ? `${words.title}. ${words.lead}` : 'Your free consultation is booked. We have emailed you the details.',
      confirmed: true,
      appointment,
    };
  }
  if (result.outcome === 'gone') {
    throw conflict(
      "That time is no longer free: it was booked by someone else before it was confirmed. Your request is still with us, and we'll call you to agree a time.",
    );
  }
  throw badRequest(LINK_INVALID, { hold: [LINK_INVALID] });
}

/** The booked consultation as its confirm page shows it: the same call link and .ics as the booked mail. */
async function visitorAppointment(deps: Pick<AppDeps, 'db' | 'config' | 'secret' | 'clock'>, id: number) {
  const row = await findAppointment(deps.db, id);
  if (!row) return null;
  const a = toMailAppointment(row);
  const { url: callUrl } = await guestCallLink(
    deps.db,
    deps.secret,
    { id: row.id, endsAt: row.ends_at },
    { baseUrl: publicBaseUrl(deps), now: deps.clock() },
  );
  return {
    id: a.id,
    start: a.start,
    end: a.end,
    dietitianName: a.dietitianName,
    callUrl,
    ics: appointmentIcs(a, {
      cancelled: row.status === 'cancelled',
      callUrl,
      attendee: row.visitor_email
        ? { name: mailSafeName(row.visitor_name ?? '', 'Visitor') || 'Visitor', email: row.visitor_email }
        : undefined,
    }),
  };
}

export function repeatBookingMessage(firstAt: Date, contact: string) {
  return `We already have your request from ${formatMoment(firstAt, SERVICE_TIME_ZONE)}; we'll call you soon on ${formatPhone(contact)}.`;
}

/* The console's side: the dietitian reads and files bookings. */

const BOOKING_MISSING = 'That booking does not exist.';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findBooking>>>;
type PickedTimes = Awaited<ReturnType<typeof repo.pickedTimesOf>>;

/** The time a request's visitor picked, as the console shows it: booked, still held, or lapsed. */
function pickedTime(r: Row, times: PickedTimes, now: Date): Booking['time'] {
  const timeZone = r.time_zone;
  const appointment = times.appointments.find((a) => a.consultation_id === r.id);
  if (appointment) return { state: 'booked', start: appointment.starts_at, until: null, timeZone };
  const hold = times.holds.find((h) => h.consultation_id === r.id);
  if (!hold) return null;
  const live = hold.status === 'held' && hold.expires_at.getTime() > now.getTime();
  return live
    ? { state: 'held', start: hold.starts_at, until: hold.expires_at, timeZone }
    : { state: 'lapsed', start: hold.starts_at, until: null, timeZone };
}

const toBooking = (r: Row, times: PickedTimes, now: Date): Booking => ({
  id: r.id,
  name: r.name,
  email: r.email,
  gender: r.gender,
  genderLabel: genderLabel(r.gender) ?? 'Not given',
  age: r.age,
  height: r.height,
  weight: r.weight,
  state: r.state,
  contact: r.contact,
  country: { id: r.country_id, name: r.country_name },
  isMedicalCondition: r.is_medical_condition,
  status: r.status,
  notes: r.notes,
  clientId: r.client_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  possibleDuplicateOf: r.possible_duplicate_of,
  time: pickedTime(r, times, now),
});

export async function listBookings(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  input: { status: 'all' | ConsultationStatus; page: number; pageSize: number },
) {
  const page = await repo.pageBookings(deps.db, input);
  const times = await repo.pickedTimesOf(
    deps.db,
    page.items.map((r) => r.id),
  );
  const now = deps.clock();
  return mapPage(page, (r) => toBooking(r, times, now));
}

export async function getBooking(deps: Pick<AppDeps, 'db' | 'clock'>, input: { id: number }) {
  const { id } = input;
  const row = await repo.findBooking(deps.db, id);
  if (!row) throw notFound(BOOKING_MISSING);
  const b = toBooking(row, await repo.pickedTimesOf(deps.db, [id]), deps.clock());
  const { firstName, lastName } = splitFullName(b.name);
  return {
    ...b,
    prefill: {
      firstName,
      lastName,
      email: b.email.trim().toLowerCase(),
      phone: b.contact,
      heightM: heightTextToMetres(b.height),
      weightKg: b.weight,
      conditionNotes: [
        b.isMedicalCondition ? 'Has a medical condition (from the booking).' : '',
        `Booking #${b.id}: age ${b.age}, ${b.genderLabel.toLowerCase()}, height "${b.height}", ${b.state}, ${b.country.name}.`,
        b.notes ? `Notes: ${b.notes}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    },
  };
}

export async function updateBooking(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'clock'>,
  actor: SessionUser,
  input: { id: number; status?: ConsultationStatus; notes?: string | null },
) {
  let deliver = () => {};
  const answer = await deps.db.transaction().execute(async (trx) => {
    const before = await repo.findBookingForUpdate(trx, input.id);
    if (!before) throw notFound(BOOKING_MISSING);
    if (input.status && input.status !== before.status) {
      if (input.status === 'converted') {
        const message = 'Convert a booking by creating the client from it (the Convert button).';
        throw badRequest(message, { status: [message] });
      }
      if (!BOOKING_TRANSITIONS[before.status].includes(input.status)) {
        const message = `A ${BOOKING_STATUS_LABELS[before.status].toLowerCase()} booking cannot be marked ${BOOKING_STATUS_LABELS[input.status].toLowerCase()}.`;
        throw badRequest(message, { status: [message] });
      }
    }
    const after = { status: input.status, notes: input.notes };
    const changes = changedFields(before, after);
    if (Object.keys(changes).length === 0) return { message: 'Nothing changed.' };
    await repo.updateBooking(trx, input.id, after);
    // A dietitian who takes up a request (contacted) accepts its held time; closing it frees the time.
    let heldTime = '';
    if (changes.status && input.status === 'contacted') {
      const tz = (await repo.timeZoneOf(trx, input.id)) ?? undefined;
      const held = await confirmHeldTime(trx, deps, await lockHoldOfConsultation(trx, input.id), { by: 'dietitian', actor, tz });
      if (held.outcome === 'confirmed') deliver = held.deliver;
      if (held.outcome === 'confirmed') heldTime = ' The time the visitor picked is now their appointment.';
      if (held.outcome === 'gone') heldTime = ' The time the visitor picked is no longer held for them: agree a time with them.';
    }
    if (changes.status && input.status === 'closed') await releaseHoldOf(trx, deps, input.id);
    const statusChange = changes.status ? `status ${before.status} → ${input.status}` : '';
    await recordAudit(trx, actor, {
      action: changes.status ? 'booking.status_changed' : 'booking.notes_updated',
      entity: 'booking',
      entityId: input.id,
      summary: `Booking #${input.id} (${before.name}): ${[statusChange, changes.notes ? 'notes updated' : ''].filter(Boolean).join(', ')}`,
      details: changes,
    });
    return { message: `The booking was updated.${heldTime}` };
  });
  deliver();
  return answer;
}

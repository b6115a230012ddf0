import { publicFormLimits, takeSlot } from '../auth/rate-limit.js';
import { BRAND } from '../brand.js';
import { formatMoment, formatPhone, SERVICE_TIME_ZONE } from '../format.js';
import { type BookingTime, bookingReceivedMail } from '../mail/templates.js';
import { findCountry } from '../countries/repo.js';
import type { AppDeps } from '../deps.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { changedFields, recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { mapPage } from '../db/paging.js';
import type { ConsultationStatus } from '../db/schema.js';
import { splitFullName } from '../users/service.js';
import { heightTextToMetres } from './height.js';
import { oneLine } from '../support/service.js';
import type { RequestMeta } from '../trpc/context.js';
import * as repo from './repo.js';
import {
  confirmHeldTime,
  consultationSlotOffer,
  consultationTaken,
  type PlacedHold,
  placeConsultationHold,
  releaseHoldOf,
  SlotTaken,
  visitorMoment,
} from '../appointments/service.js';
import { findHold, isTimeTaken, lockHold, lockHoldOfConsultation } from '../appointments/repo.js';
import { checkHoldLink, signHoldLink } from '../appointments/hold-link.js';
import { publicBaseUrl } from '../auth/service.js';
import {
  BOOKING_STATUS_LABELS,
  BOOKING_TRANSITIONS,
  type BookConsultationInput,
  type Booking,
  CHOOSE_A_COUNTRY,
  type ConfirmHoldInput,
  CONSULTATION_BOOKED,
  genderLabel,
  HOLD_MINUTES,
  mailSafeName,
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
  const when = input.slot ? visitorMoment(input.slot, input.tz) : '';
  const until = placed ? visitorMoment(placed.expiresAt, input.tz) : '';
  const time: BookingTime | undefined = placed
    ? {
        held: {
          when,
          until,
          confirmUrl: signHoldLink(
            deps.secret,
            { id: placed.id, consultationId: booked.id },
            { baseUrl: publicBaseUrl(deps), now: deps.clock().getTime() },
          ),
        },
      }
    : input.slot
      ? { notHeld: { when } }
      : undefined;
  await deps.mailer.queue(
    bookingReceivedMail({ to: input.email, name: input.name, phone: formatPhone(input.contact), bookingId: booked.id, time }),
  );
  const message = placed ? heldMessage(when, until) : input.slot ? notHeldMessage(when) : CONSULTATION_BOOKED;
  return { message, data: { id: booked.id }, repeated: false };
}

const heldMessage = (when: string, until: string) =>
  `Your request is in. We are holding ${when} for you until ${until}: it is booked once you confirm it with the link in the email we just sent. Unconfirmed, the time is released and we call you instead.`;
const notHeldMessage = (when: string) =>
  `Your request is in, but we could not hold ${when}: other times asked for from this address are still waiting to be confirmed. We'll call you to agree a time.`;

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
  const result = await deps.db
    .transaction()
    .execute(async (trx) => confirmHeldTime(trx, deps, await lockHold(trx, found.id), { by: 'visitor', actor: null }))
    .catch((err) => {
      // Taken in the same instant by a booking the lock did not see: the same answer as taken.
      if (isTimeTaken(err)) return { outcome: 'gone' as const, start: now };
      throw err;
    });
  if (result.outcome === 'confirmed') result.deliver();
  if (result.outcome === 'confirmed' || result.outcome === 'already') {
    const when = result.appointment ? visitorMoment(result.appointment.start) : '';
    return {
      message: `Your free consultation${when ? ` on ${when}` : ''} is booked. We have emailed you the details and a calendar invitation.`,
      confirmed: true,
    };
  }
  if (result.outcome === 'gone') {
    throw conflict(
      "That time is no longer free: it was booked by someone else before it was confirmed. Your request is still with us, and we'll call you to agree a time.",
    );
  }
  throw badRequest(LINK_INVALID, { hold: [LINK_INVALID] });
}

export function repeatBookingMessage(firstAt: Date, contact: string) {
  return `We already have your request from ${formatMoment(firstAt, SERVICE_TIME_ZONE)}; we'll call you soon on ${formatPhone(contact)}.`;
}

/* The console's side: the dietitian reads and files bookings. */

const BOOKING_MISSING = 'That booking does not exist.';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findBooking>>>;
const toBooking = (r: Row): Booking => ({
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
});

export async function listBookings(db: Db, input: { status: 'all' | ConsultationStatus; page: number; pageSize: number }) {
  return mapPage(await repo.pageBookings(db, input), toBooking);
}

export async function getBooking(db: Db, input: { id: number }) {
  const { id } = input;
  const row = await repo.findBooking(db, id);
  if (!row) throw notFound(BOOKING_MISSING);
  const b = toBooking(row);
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
      const held = await confirmHeldTime(trx, deps, await lockHoldOfConsultation(trx, input.id), { by: 'dietitian', actor });
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

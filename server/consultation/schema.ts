import { z } from 'zod';
import { instantField, timeZoneField } from '../appointments/schema.js';
import type { ConsultationStatus } from '../db/schema.js';
import { isServiceZone, SERVICE_TIME_ZONE } from '../time.js';
import { emailAddress, idField, INT32_MAX, numberField, optionalText, pageInput, pageOf, requiredText } from '../validation.js';

/*
 * The consultation modal's rules, shared by the React form and the
 * server. The spec's 'reqiured' typos are fixed to 'required'.
 */

export const GENDERS = [
  { value: 1, label: 'Male' },
  { value: 2, label: 'Female' },
  { value: 3, label: 'Other' },
] as const;
export type Gender = (typeof GENDERS)[number]['value'];
export const genderLabel = (gender: number) => GENDERS.find((g) => g.value === gender)?.label;

export const CONSULTATION_NAME_MAX = 100;
export const CONSULTATION_EMAIL_MAX = 254;
export const CONSULTATION_HEIGHT_MAX = 30;
export const CONSULTATION_STATE_MAX = 100;
/** Age and weight have at most three digits. */
export const AGE_MAX = 999;
export const CONSULTATION_WEIGHT_MAX = 999;
export const CONTACT_MIN_DIGITS = 10;
export const CONTACT_MAX_DIGITS = 13;

const CONTACT_DIGITS = /^\d{10,13}$/;
const CONTACT_LENGTH = `Contact must be between ${CONTACT_MIN_DIGITS} and ${CONTACT_MAX_DIGITS} digits`;
export const CHOOSE_A_COUNTRY = 'Choose a country from the list';

export const ageField = numberField('Age is required', 'Age must be a number').pipe(
  z.number().int('Age must be a whole number').positive('Age must be more than 0').max(AGE_MAX, 'Age cannot exceed 3 digits'),
);

export const genderField = numberField('Gender is required', 'Choose Male, Female or Other').pipe(
  z.literal(
    GENDERS.map((g) => g.value),
    'Choose Male, Female or Other',
  ),
);

export const consultationWeightField = numberField('Weight is required', 'Weight must be a number')
  .pipe(z.number().positive('Weight must be more than 0').max(CONSULTATION_WEIGHT_MAX, 'Weight cannot exceed 3 digits'))
  .transform((kg) => Math.round(kg * 100) / 100);

/**
 * Digits only, 10 to 13 of them. Spaces, dashes, brackets and a leading '+'
 * that people type are dropped first, so '+91 98765-43210' is accepted as
 * '919876543210'.
 */
export const contactField = z
  .union([z.string().max(40, CONTACT_LENGTH), z.number()], { error: 'Contact is required' })
  .transform((v) =>
    String(v)
      .replace(/[\s\-().]/g, '')
      .replace(/^\+/, ''),
  )
  .pipe(
    z
      .string()
      .min(1, { error: 'Contact is required', abort: true })
      .refine((digits) => CONTACT_DIGITS.test(digits), CONTACT_LENGTH),
  );

/** The id of a country from GET /api/countries (a select sends it as text). */
export const countryField = numberField('Country is required', CHOOSE_A_COUNTRY).pipe(
  z.number().int(CHOOSE_A_COUNTRY).positive(CHOOSE_A_COUNTRY).max(INT32_MAX, CHOOSE_A_COUNTRY),
);

const CONDITION_ANSWERS = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  ['1', true],
  ['0', false],
  [1, true],
  [0, false],
  ['true', true],
  ['false', false],
]);

/** Yes/No radios send '1' and '0'; JSON callers may send a boolean. */
export const medicalConditionField = z.preprocess(
  (v) => (v === '' ? undefined : CONDITION_ANSWERS.has(v) ? CONDITION_ANSWERS.get(v) : v),
  z.boolean({ error: (iss) => (iss.input == null ? 'Condition is required' : 'Answer Yes or No') }),
);

/**
 * What a mail client could turn into a link: a scheme (http://, mailto:), 'www.', an '@', angle
 * brackets, or a dot with letters right after it (example.com, Dr.Sharma). The name is the greeting of
 * the mails we send to the address given, so a visitor's own text must never become a link there; a
 * name with a dot in it is written with a space after the dot ('Dr. Sharma', 'S. K. Rao').
 */
const LINK_LIKE = /[a-z][a-z0-9+.-]*:\/\/|\bwww[.。．｡]|mailto:|[@<>＠]|[\p{L}\p{N}_-][.。．｡]\p{L}{2}/iu;
export const NAME_LINK_LIKE = 'Enter just your name, without web or email addresses (put a space after a dot, as in "Dr. Sharma")';
/** Whether a name could become a link in a mail (names stored before this rule included). */
export const looksLikeLink = (text: string) => LINK_LIKE.test(text);
/** A visitor's name as a mail may print it: left out (the caller's fallback) when it could become a link. */
export const mailSafeName = <T>(name: string, fallback: T) => (looksLikeLink(name) ? fallback : name);

export const consultationNameField = requiredText('Name is required', CONSULTATION_NAME_MAX).refine(
  (name) => !looksLikeLink(name),
  NAME_LINK_LIKE,
);

export const consultationForm = z.object({
  name: consultationNameField,
  /** One address, as every e-mail field checks it: the booking mails go there, to no one else. */
  email: emailAddress(CONSULTATION_EMAIL_MAX),
  gender: genderField,
  age: ageField,
  height: requiredText('Height is required', CONSULTATION_HEIGHT_MAX),
  weight: consultationWeightField,
  state: requiredText('State is required', CONSULTATION_STATE_MAX),
  contact: contactField,
  country: countryField,
  isMedicalCondition: medicalConditionField,
});

/**
 * The call takes the form and, when the visitor picked one, a free slot (an instant from
 * GET /api/appointments/slots?kind=consultation) with their time zone; without a slot it is a callback request.
 */
export const bookConsultationInput = consultationForm.extend({
  slot: instantField('slot').optional(),
  tz: timeZoneField.optional(),
});

/** What react-hook-form holds (raw field values) and what it hands to submit (parsed). */
export type ConsultationFormInput = z.input<typeof consultationForm>;
export type ConsultationFormValues = z.output<typeof consultationForm>;
export type BookConsultationInput = z.output<typeof bookConsultationInput>;

/*
 * A visitor's chosen time is held, not booked, until they confirm it with the link in the booking mail (or a
 * dietitian accepts the request): an unconfirmed request from anyone must not take a paying client's time.
 * A live hold keeps the time out of other visitors' offers; clients may book over it (the hold is released
 * and the visitor told). Beyond the caps below the request is still taken, as a callback request without a
 * time (the answer and the mail say so): the visitor loses nothing, and no one can fill the calendar.
 */
export const HOLD_MINUTES = 30;
/** Live (unconfirmed, unexpired) holds one e-mail address may have. */
export const MAX_LIVE_HOLDS_PER_EMAIL = 2;
/** Live holds requests from one network address may have (a clinic's visitors may share one). */
export const MAX_LIVE_HOLDS_PER_IP = 3;

export const confirmHoldInput = z.object({
  hold: numberField('The link is missing its booking number. Open the link from the email again.', 'This link is not valid.').pipe(
    z.number().int('This link is not valid.').positive('This link is not valid.').max(INT32_MAX, 'This link is not valid.'),
  ),
  // As the link signer writes them: unix seconds, and a base64url HMAC.
  exp: z.string({ error: 'This link is not valid.' }).max(20, 'This link is not valid.').regex(/^\d+$/, 'This link is not valid.'),
  sig: z
    .string({ error: 'This link is not valid.' })
    .max(100, 'This link is not valid.')
    .regex(/^[\w-]+$/, 'This link is not valid.'),
});
export type ConfirmHoldInput = z.output<typeof confirmHoldInput>;
/** The booked consultation as the confirm page shows it: the time (the page writes it in the visitor's zone), how to join, the .ics. */
export const confirmedAppointment = z.object({
  id: z.number().int(),
  start: z.date(),
  end: z.date(),
  dietitianName: z.string(),
  /** Where the visitor joins the video call (the same link as the booked mail's). */
  callUrl: z.string(),
  /** The calendar invitation (RFC 5545), the same file the booked mail attaches. */
  ics: z.string(),
});
export const confirmedHold = z.object({ message: z.string(), confirmed: z.boolean(), appointment: confirmedAppointment.nullable() });

/** A visitor's repeat of an open booking within this many hours is answered with the first (same e-mail and contact). */
export const REPEAT_BOOKING_HOURS = 24;

/**
 * What became of a request, as the confirmation screen and the booking mail both say it: a time held until
 * the visitor confirms it, a time asked for but not held (the caps), a callback request, or a repeat.
 */
export const BOOKING_OUTCOMES = ['held', 'not-held', 'callback', 'repeat'] as const;
export type BookingOutcome = (typeof BOOKING_OUTCOMES)[number];

export const bookedConsultation = z.object({
  message: z.string(),
  data: z.object({ id: z.number().int() }),
  /** True when this was a repeat of an open booking (same e-mail and contact, within REPEAT_BOOKING_HOURS): nothing new was stored or mailed. */
  repeated: z.boolean(),
  outcome: z.enum(BOOKING_OUTCOMES),
  /** The time asked for (held or not) and, when held, until when; null for a callback request or a repeat. */
  time: z.object({ start: z.date(), heldUntil: z.date().nullable() }).nullable(),
  /** The visitor's phone as we will call it. */
  phone: z.string(),
});
export type BookedConsultation = z.infer<typeof bookedConsultation>;

/* Bookings as the console sees them: statuses, transitions and the shapes returned. */

export const BOOKING_STATUSES = ['new', 'contacted', 'converted', 'closed'] as const satisfies readonly ConsultationStatus[];
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const BOOKING_STATUS_LABELS: Record<ConsultationStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  converted: 'Converted',
  closed: 'Closed',
};

/**
 * new → contacted → converted / closed. A closed booking can be reopened as
 * contacted. Converted is reached only by creating the client (admin.clients.create
 * with bookingId), so the booking always points at the account it became.
 */
export const BOOKING_TRANSITIONS: Record<ConsultationStatus, readonly ConsultationStatus[]> = {
  new: ['contacted', 'closed'],
  contacted: ['closed'],
  closed: ['contacted'],
  converted: [],
};
/** States from which a booking can still be converted into a client. */
export const CONVERTIBLE: readonly ConsultationStatus[] = ['new', 'contacted'];

export const booking = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  gender: z.number().int(),
  genderLabel: z.string(),
  age: z.number().int(),
  height: z.string(),
  weight: z.number(),
  state: z.string(),
  contact: z.string(),
  country: z.object({ id: z.number().int(), name: z.string() }),
  isMedicalCondition: z.boolean(),
  status: z.enum(BOOKING_STATUSES),
  notes: z.string().nullable(),
  clientId: z.number().int().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /** An earlier booking with the same e-mail or contact, made within REPEAT_BOOKING_HOURS before this one: a possible duplicate. */
  possibleDuplicateOf: z.number().int().nullable(),
  /**
   * The time the visitor picked: booked (their appointment), held (until `until`, waiting for their
   * confirmation), or lapsed (not confirmed in time, or given to a client); null for a callback request.
   */
  time: z
    .object({
      state: z.enum(['booked', 'held', 'lapsed']),
      start: z.date(),
      until: z.date().nullable(),
      /** The visitor's own zone, as their browser gave it (null: India time). */
      timeZone: z.string().nullable(),
    })
    .nullable(),
});
export type Booking = z.infer<typeof booking>;
/** What "convert" puts in the new-client form; the dietitian checks it before saving. */
export const clientPrefill = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  heightM: z.number().nullable(),
  weightKg: z.number().nullable(),
  conditionNotes: z.string(),
});
export const bookingDetail = booking.extend({ prefill: clientPrefill });

/*
 * The words a visitor reads about their request: the confirmation screen, the confirm page and the mails
 * are all written from these, so a screen and its mail always say the same thing. Pure (Intl only), so the
 * browser and the server write a time identically.
 */

const isIndiaZone = (tz?: string | null) => !tz || isServiceZone(tz);

function dayAndTime(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: `${part('weekday')} ${part('day')} ${part('month')}`, time: `${part('hour')}:${part('minute')}` };
}

/** "London" for Europe/London, "New York" for America/New_York. */
export const placeOfZone = (tz: string) => (tz.split('/').pop() ?? tz).replace(/_/g, ' ');

/**
 * A consultation time as a visitor reads it: India time, the clinic's, and, for a visitor elsewhere, their
 * own ("Tue 2 Dec, 09:00 IST (your time: Tue 2 Dec, 04:30 in London)").
 */
export function consultationWhen(at: Date, tz?: string | null, whose = 'your time'): string {
  const india = dayAndTime(at, SERVICE_TIME_ZONE);
  const text = `${india.day}, ${india.time} IST`;
  if (isIndiaZone(tz)) return text;
  const local = dayAndTime(at, tz as string);
  return `${text} (${whose}: ${local.day}, ${local.time} in ${placeOfZone(tz as string)})`;
}

/** Just the clock time of a moment, with the visitor's own beside it ("09:30 IST (04:00 your time)"). */
export function consultationClock(at: Date, tz?: string | null): string {
  const india = `${dayAndTime(at, SERVICE_TIME_ZONE).time} IST`;
  if (isIndiaZone(tz)) return india;
  return `${india} (${dayAndTime(at, tz as string).time} your time)`;
}

export type VisitorWords = {
  /** The screen's heading and the mail's subject line. */
  title: string;
  /** What happened, in one paragraph. */
  lead: string;
  /** What happens next, in order. */
  steps: string[];
};

export type VisitorState =
  | { state: 'held'; start: Date; heldUntil: Date; phone: string; tz?: string | null }
  | { state: 'not-held'; start: Date; phone: string; tz?: string | null }
  | { state: 'callback'; phone: string }
  | { state: 'booked'; start: Date; dietitianName: string; tz?: string | null };

export const CALL_OPENS_MINUTES_BEFORE = 10;

/** The one text of each state of a visitor's request: the screen shows it, the mail for that state says it. */
export function visitorWords(s: VisitorState): VisitorWords {
  const consult = 'In the consultation, the dietitian explains the plan that fits you and answers your questions.';
  switch (s.state) {
    case 'held':
      return {
        title: `Confirm your time within ${HOLD_MINUTES} minutes`,
        lead: `We are holding ${consultationWhen(s.start, s.tz)} for your free video consultation until ${consultationClock(s.heldUntil, s.tz)}. It is booked only once you confirm it.`,
        steps: [
          `Open the email we have just sent you and press “Confirm my time” before ${consultationClock(s.heldUntil, s.tz)}.`,
          'You then get an email with the link to join the video call and a calendar invitation. You need no account.',
          `If you do not confirm in time, the time is released and we call you on ${s.phone} to agree another.`,
        ],
      };
    case 'not-held':
      return {
        title: 'We will call you to agree a time',
        lead: `Your request has reached our dietitians, but we could not hold ${consultationWhen(s.start, s.tz)}: other times asked for from this address are still waiting to be confirmed.`,
        steps: [`A dietitian calls you on ${s.phone} within one working day to agree a time that suits you.`, consult],
      };
    case 'callback':
      return {
        title: 'We will call you back',
        lead: 'Your request for a free consultation has reached our dietitians.',
        steps: [`A dietitian calls you on ${s.phone} within one working day to agree a time that suits you.`, consult],
      };
    case 'booked':
      return {
        title: 'Your consultation is booked',
        lead: `Your free video consultation with ${s.dietitianName} is booked for ${consultationWhen(s.start, s.tz)}.`,
        steps: [
          'Add it to your calendar with the invitation (an .ics file).',
          `Join the video call from the link ${CALL_OPENS_MINUTES_BEFORE} minutes before the start. You need no account: allow your camera and microphone when asked.`,
          consult,
        ],
      };
  }
}

/* Consultation bookings in the console: the list and update inputs. */

export const listBookingsInput = pageInput.extend({ status: z.enum(['all', ...BOOKING_STATUSES]).default('all') });

export const updateBookingInput = z.object({
  id: idField('id'),
  status: z.enum(BOOKING_STATUSES, { error: `Status must be one of ${BOOKING_STATUSES.join(', ')}` }).optional(),
  notes: optionalText('Notes', 5000, { multiline: true }).optional(),
});

export const bookingPage = pageOf(booking);

import { z } from 'zod';
import { instantField, timeZoneField } from '../appointments/schema.js';
import type { ConsultationStatus } from '../db/schema.js';
import { emailAddress, INT32_MAX, numberField, requiredText } from '../validation.js';

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
/** The form starts on Male (default gender 1); the server still requires a value. */
export const DEFAULT_GENDER: Gender = 1;
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

export const CONSULTATION_BOOKED = "Your consultation has been booked successfully! We'll get in touch with you soon.";

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
export const confirmedHold = z.object({ message: z.string(), confirmed: z.boolean() });

/** A visitor's repeat of an open booking within this many hours is answered with the first (same e-mail and contact). */
export const REPEAT_BOOKING_HOURS = 24;

export const bookedConsultation = z.object({
  message: z.string(),
  data: z.object({ id: z.number().int() }),
  /** True when this was a repeat of an open booking (same e-mail and contact, within REPEAT_BOOKING_HOURS): nothing new was stored or mailed. */
  repeated: z.boolean(),
});

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

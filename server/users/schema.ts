import { z } from 'zod';
import { newPasswordField } from '../auth/schema.js';
import { emailText, idField, optionalText, pageInput, pageOf, plainText, requiredText } from '../validation.js';
import { HEIGHT_RANGE_MESSAGE, WEIGHT_RANGE_MESSAGE, heightMetres, weightKilograms } from '../measurements/schema.js';

/**
 * The client's own profile, shared by the profile page's forms and
 * the server. zod only: nothing from Node here.
 */

const PHONE_DIGITS = 'Phone must have 10 to 13 digits';

/** An empty form field means "not on file"; text from an input becomes a number. */
const optionalMeasurement = (rule: z.ZodNumber, message: string) =>
  z.preprocess(
    (v) => {
      const trimmed = typeof v === 'string' ? v.trim() : v;
      if (trimmed === '' || trimmed === undefined) return null;
      return typeof trimmed === 'string' ? Number(trimmed) : trimmed;
    },
    z.union([z.null(), rule], { error: message }),
  );

/** Digits only (spaces, dashes, brackets and a leading '+' are dropped), or empty. */
const phoneField = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/[\s\-().]/g, '').replace(/^\+/, '') : v),
  z.union([z.literal('').transform(() => null), z.string().regex(/^\d{10,13}$/, PHONE_DIGITS), z.null()]),
);

export const PROFILE_NOTHING_TO_CHANGE = 'Send at least one of firstName, lastName, phone, heightM or weightKg to change.';

/**
 * A change to the own profile: only the fields sent change, the others keep
 * their saved values (a client that sends one field cannot wipe the rest).
 * `null` or an empty string clears phone, height or weight.
 */
export const updateProfileInput = z
  .object({
    firstName: z
      .string({ error: 'First name is required' })
      .trim()
      .min(1, 'First name is required')
      .max(100, 'First name is too long')
      .pipe(plainText('First name'))
      .optional(),
    lastName: z
      .string({ error: 'Last name must be text' })
      .trim()
      .max(100, 'Last name is too long')
      .pipe(plainText('Last name'))
      .optional(),
    phone: phoneField.optional(),
    heightM: optionalMeasurement(heightMetres, HEIGHT_RANGE_MESSAGE).optional(),
    weightKg: optionalMeasurement(weightKilograms, WEIGHT_RANGE_MESSAGE).optional(),
  })
  .refine((v) => Object.values(v).some((field) => field !== undefined), { message: PROFILE_NOTHING_TO_CHANGE })
  .meta({
    description:
      'Only the fields sent change; fields left out keep their saved values. null or an empty string clears phone, heightM or weightKg. At least one field.',
  });

export const profileOutput = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  heightM: z.number().nullable(),
  weightKg: z.number().nullable(),
});

export const PASSWORDS_DIFFER = 'The two new passwords do not match';
export const SAME_PASSWORD = 'The new password must be different from the current one';

/** The form's fields; the client encrypts `currentPassword` as on sign-in before sending. */
export const changePasswordForm = z
  .object({
    currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(1000),
    newPassword: newPasswordField,
    confirmPassword: z.string({ error: 'Repeat the new password' }).min(1, 'Repeat the new password'),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: PASSWORDS_DIFFER });
export const changePasswordInput = changePasswordForm;

export const deviceOutput = z.object({
  id: z.string().describe('The sign-in (every renewal of it shares this id); name it to sign the device out'),
  browser: z.string().describe('Browser and system, from the User-Agent of the sign-in'),
  signedInAt: z.date().describe('When this sign-in began (its password was entered)'),
  lastActiveAt: z
    .date()
    .describe(
      'When the device last renewed its session: it was in use then. A device renews on its first request after its hour-long session token expired, so one in use now may read up to an hour ago; it never moves without the device',
    ),
  current: z.boolean().describe('The sign-in that made this request'),
});
export const signOutDeviceInput = z.object({ id: z.uuid('That device is not signed in') });

export type UpdateProfileInput = z.output<typeof updateProfileInput>;
export type ChangePasswordInput = z.output<typeof changePasswordInput>;

/*
 * Client accounts as the console manages them: the client form (the React
 * form uses the same rules and messages), the list filter and the shapes
 * returned. Height and weight bounds come from server/measurements.
 */

export const CLIENT_PHONE_DIGITS = { min: 10, max: 13 } as const;

/** A number typed into a form (text), optional: blank means "not given". */
const optionalNumber = (notNumber: string) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v.trim())) : v), z.number({ error: notNumber }).nullish());

const phoneMessage = `Phone must have ${CLIENT_PHONE_DIGITS.min} to ${CLIENT_PHONE_DIGITS.max} digits`;

export const clientForm = z.object({
  firstName: requiredText('First name is required', 100),
  lastName: optionalText('Last name', 100).transform((v) => v ?? ''),
  email: emailText().pipe(z.email('Enter a valid email address, e.g. asha@example.com')),
  /** Digits only are kept: '+91 98765-43210' → '919876543210'. */
  phone: z
    .string({ error: 'Phone must be text' })
    .max(40, phoneMessage)
    .nullish()
    .transform((v) => (v ?? '').replace(/[\s\-().+]/g, ''))
    .pipe(
      z
        .string()
        .refine((d) => d === '' || new RegExp(`^\\d{${CLIENT_PHONE_DIGITS.min},${CLIENT_PHONE_DIGITS.max}}$`).test(d), phoneMessage),
    )
    .transform((d) => (d === '' ? null : d)),
  heightM: optionalNumber('Height must be a number in metres, e.g. 1.65').pipe(heightMetres.nullish()),
  weightKg: optionalNumber('Weight must be a number in kg, e.g. 68').pipe(weightKilograms.nullish()),
  conditionNotes: optionalText('Condition notes', 5000, { multiline: true }),
});
export type ClientFormInput = z.input<typeof clientForm>;
export type ClientFormValues = z.output<typeof clientForm>;

export const CLIENT_STATUSES = ['all', 'active', 'inactive'] as const;
/** What the client list filters on, besides the page. */
export type ClientSearch = { q?: string; status: (typeof CLIENT_STATUSES)[number] };

export const clientSummary = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  phone: z.string().nullable(),
  isActive: z.boolean(),
  /** False until the client has set a password from the welcome mail. */
  hasPassword: z.boolean(),
  createdAt: z.date(),
});

export const clientDetail = clientSummary.extend({
  heightM: z.number().nullable(),
  weightKg: z.number().nullable(),
  conditionNotes: z.string().nullable(),
  rating: z
    .object({ id: z.number().int(), stars: z.number(), comment: z.string(), isPublished: z.boolean(), createdAt: z.date() })
    .nullable(),
  bookingId: z.number().int().nullable(),
});
export type ClientDetail = z.infer<typeof clientDetail>;

/* The console's client inputs and the shapes its client list answers. */

export const createClientInput = clientForm.extend({
  /** The booking this client came from: it is marked converted in the same transaction. */
  bookingId: idField('bookingId').optional(),
});
export const updateClientInput = clientForm.extend({ id: idField('id') });
export const setClientActiveInput = z.object({ id: idField('id'), active: z.boolean({ error: 'active must be true or false' }) });

export const listClientsInput = pageInput.extend({
  /** Prefix of the email, the full name, the last name or the phone number. */
  q: z.string().trim().max(100, 'Search at most 100 characters').pipe(plainText('Search')).optional(),
  status: z.enum(CLIENT_STATUSES).default('all'),
});

export const clientPage = pageOf(clientSummary);

export const clientWeights = z.array(z.object({ id: z.number().int(), weight: z.number(), date: z.string() }));

export const createdClient = z.object({
  id: z.number().int(),
  message: z.string(),
  /** The outbox id of the welcome mail with the set-password link. */
  outboxId: z.number().int(),
});

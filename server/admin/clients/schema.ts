import { z } from 'zod';
import { heightMetres, weightKilograms } from '../../measurements/schema.js';
import { emailText, idField, plainText, requiredText } from '../../validation.js';
import { optionalText, pageInput, pageOf } from '../common.js';

/**
 * The console's client forms and lists. zod only: the React forms use the
 * same rules and messages. Height and weight bounds come from server/measurements.
 */

export const PHONE_DIGITS = { min: 10, max: 13 } as const;

/** A number typed into a form (text), optional: blank means "not given". */
const optionalNumber = (notNumber: string) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v.trim())) : v), z.number({ error: notNumber }).nullish());

const phoneMessage = `Phone must have ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits`;

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
    .pipe(z.string().refine((d) => d === '' || new RegExp(`^\\d{${PHONE_DIGITS.min},${PHONE_DIGITS.max}}$`).test(d), phoneMessage))
    .transform((d) => (d === '' ? null : d)),
  heightM: optionalNumber('Height must be a number in metres, e.g. 1.65').pipe(heightMetres.nullish()),
  weightKg: optionalNumber('Weight must be a number in kg, e.g. 68').pipe(weightKilograms.nullish()),
  conditionNotes: optionalText('Condition notes', 5000, { multiline: true }),
});
export type ClientFormInput = z.input<typeof clientForm>;
export type ClientFormValues = z.output<typeof clientForm>;

export const createClientInput = clientForm.extend({
  /** The booking this client came from: it is marked converted in the same transaction. */
  bookingId: idField('bookingId').optional(),
});
export const updateClientInput = clientForm.extend({ id: idField('id') });
export const setClientActiveInput = z.object({ id: idField('id'), active: z.boolean({ error: 'active must be true or false' }) });

export const CLIENT_STATUSES = ['all', 'active', 'inactive'] as const;
export const listClientsInput = pageInput.extend({
  /** Prefix of the email, the full name, the last name or the phone number. */
  q: z.string().trim().max(100, 'Search at most 100 characters').pipe(plainText('Search')).optional(),
  status: z.enum(CLIENT_STATUSES).default('all'),
});
export type ListClientsInput = z.input<typeof listClientsInput>;

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
export const clientPage = pageOf(clientSummary);

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

export const clientWeights = z.array(z.object({ id: z.number().int(), weight: z.number(), date: z.string() }));

export const createdClient = z.object({
  id: z.number().int(),
  message: z.string(),
  /** The outbox id of the welcome mail with the set-password link. */
  outboxId: z.number().int(),
});

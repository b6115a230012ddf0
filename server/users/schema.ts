import { z } from 'zod';
import { newPasswordField } from '../auth/schema.js';
import { plainText } from '../validation.js';
import { HEIGHT_RANGE_MESSAGE, WEIGHT_RANGE_MESSAGE, heightMetres, weightKilograms } from '../measurements/schema.js';

/**
 * The client's own profile (issue 12), shared by the profile page's forms and
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

export const updateProfileInput = z.object({
  firstName: z
    .string({ error: 'First name is required' })
    .trim()
    .min(1, 'First name is required')
    .max(100, 'First name is too long')
    .pipe(plainText('First name')),
  lastName: z.string().trim().max(100, 'Last name is too long').pipe(plainText('Last name')).default(''),
  phone: phoneField.default(null),
  heightM: optionalMeasurement(heightMetres, HEIGHT_RANGE_MESSAGE).default(null),
  weightKg: optionalMeasurement(weightKilograms, WEIGHT_RANGE_MESSAGE).default(null),
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
  id: z.string(),
  browser: z.string(),
  signedInAt: z.date(),
  lastActiveAt: z.date(),
  current: z.boolean(),
});
export const signOutDeviceInput = z.object({ id: z.uuid('That device is not signed in') });

export type UpdateProfileInput = z.output<typeof updateProfileInput>;
export type ChangePasswordInput = z.output<typeof changePasswordInput>;

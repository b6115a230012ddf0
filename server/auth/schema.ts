import { z } from 'zod';
import { ROLE } from './roles.js';

/**
 * Auth inputs and outputs, shared with the React forms (login, forgot and
 * reset password). zod only: nothing from Node here.
 */

export const PASSWORD_MIN = 8;
/** A new password (account creation, reset). Sign-in takes any non-empty password. */
export const passwordField = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(200, 'Password must be at most 200 characters');

/** Spec 5: 'Email is required' and no email-format rule on these forms. */
const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .transform((email) => email.toLowerCase());

const ROLE_MESSAGE = 'Role must be 1 (dietitian) or 2 (client)';
const roleField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.union([z.literal(ROLE.admin), z.literal(ROLE.client)], {
    error: (iss) => (iss.input == null ? 'Role is required' : ROLE_MESSAGE),
  }),
);

/** An encrypted password is `enc:<kid>:<base64url RSA-OAEP ciphertext>` (2048-bit key → 342 characters). */
const signInPassword = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(1000, 'Password must be at most 1000 characters');

export const signInInput = z.object({ email: emailField, password: signInPassword, role: roleField });
/** The login form (the client adds the fixed role 2 and encrypts the password). */
export const signInForm = signInInput.pick({ email: true, password: true });
export const refreshInput = z.object({
  refreshToken: z
    .string({ error: 'Refresh token is required' })
    .trim()
    .min(1, 'Refresh token is required')
    .max(200, 'Refresh token is not valid'),
});
export const signOutInput = z
  .object({
    /** Lets a client whose session token already expired still revoke its refresh token. */
    refreshToken: z.string().trim().max(200).optional(),
  })
  .optional();
export const forgotPasswordInput = z.object({ email: emailField });
export const resetPasswordForm = z.object({ password: passwordField });
export const resetPasswordInput = z.object({
  token: z
    .string({ error: 'The reset link is missing its token. Open the link from the email again.' })
    .trim()
    .min(1, 'The reset link is missing its token. Open the link from the email again.')
    .max(200, 'This password reset link is not valid. Ask for a new one.'),
  password: passwordField,
});

export const publicKeyOutput = z.object({
  kid: z.string(),
  jwk: z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), alg: z.literal('RSA-OAEP-256'), kid: z.string() }).loose(),
});

export const authUser = z.object({
  id: z.number().int(),
  fullName: z.string(),
  role: z.number().int(),
  height: z.number().nullable(),
  weight: z.number().nullable(),
});
export const sessionData = authUser.extend({ token: z.string(), refreshToken: z.string() });
export const sessionOutput = z.object({ message: z.string(), data: sessionData });
export const checkAuthorizationOutput = z.object({ message: z.string(), data: authUser });
export const messageOutput = z.object({ message: z.string() });

export type SignInInput = z.infer<typeof signInInput>;
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;
export type AuthUser = z.infer<typeof authUser>;
export type SessionData = z.infer<typeof sessionData>;
export type PublicKey = z.infer<typeof publicKeyOutput>;

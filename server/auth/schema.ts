import { z } from 'zod';
import { emailText, tokenText } from '../validation.js';
import { ROLE } from './roles.js';

/**
 * Auth inputs and outputs, shared with the React forms (login, forgot and
 * reset password). zod only: nothing from Node here.
 */

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN} characters`;
export const PASSWORD_TOO_COMMON =
  'This password is too common or too easy to guess. Use a few unrelated words, or add characters that do not follow a known pattern.';

/**
 * The rule for every new password: account creation (console, CLI, seed),
 * reset, the invitation's set-password link and password changes. At least
 * 10 characters and not a common password or an easy variation of one
 * (decision 027). Sign-in takes any non-empty password, so accounts with
 * older, shorter passwords still sign in. The common-password check is
 * asynchronous (it loads its dictionary on first use): parse with
 * `parseAsync` / `safeParseAsync`; tRPC and the form resolver already do.
 */
export const newPasswordField = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
  .refine(
    async (password) =>
      password.length < PASSWORD_MIN || password.length > PASSWORD_MAX || !(await import('./password-strength.js')).isEasyToGuess(password),
    PASSWORD_TOO_COMMON,
  );

/** 'Email is required' and no email-format rule on these forms. */
const emailField = emailText();

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

export const signInInput = z.object({
  email: emailField,
  password: signInPassword,
  role: roleField,
  /** The known-device token a previous sign-in on this device returned (decision 026). */
  deviceToken: tokenText('Device token', 300).optional(),
});
/** The login form (the client adds the fixed role 2 and encrypts the password). */
export const signInForm = signInInput.pick({ email: true, password: true });
export const refreshInput = z.object({
  refreshToken: tokenText('Refresh token').pipe(z.string().min(1, 'Refresh token is required')),
});
export const signOutInput = z
  .object({
    /** Lets a client whose session token already expired still revoke its refresh token. */
    refreshToken: tokenText('Refresh token').optional(),
  })
  .optional();
export const forgotPasswordInput = z.object({ email: emailField });
export const resetPasswordForm = z.object({ password: newPasswordField });
export const resetPasswordInput = z.object({
  token: z
    .string({ error: 'The reset link is missing its token. Open the link from the email again.' })
    .trim()
    .min(1, 'The reset link is missing its token. Open the link from the email again.')
    .max(200, 'This password reset link is not valid. Ask for a new one.')
    .pipe(tokenText('token', 200, 'This password reset link is not valid. Ask for a new one.')),
  password: newPasswordField,
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
/** Sign-in also hands the device a known-device token to send with its next sign-ins. */
export const signInData = sessionData.extend({ deviceToken: z.string() });
export const signInOutput = z.object({ message: z.string(), data: signInData });
export const checkAuthorizationOutput = z.object({ message: z.string(), data: authUser });
export const messageOutput = z.object({ message: z.string() });

export type SignInInput = z.infer<typeof signInInput>;
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;
export type AuthUser = z.infer<typeof authUser>;
export type SessionData = z.infer<typeof sessionData>;
export type PublicKey = z.infer<typeof publicKeyOutput>;

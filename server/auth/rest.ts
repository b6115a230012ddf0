import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { deviceOutput } from '../users/schema.js';
import {
  authUser,
  forgotPasswordInput,
  publicKeyOutput,
  refreshInput,
  resetPasswordInput,
  sessionData,
  signInData,
  signInInput,
  signOutInput,
} from './schema.js';
import { SIGN_OUT_HEADERS } from './sign-out-headers.js';

const TAG = 'Auth';

export const authRoutes = defineRoutes([
  {
    method: 'get',
    path: '/auth/public-key',
    summary: 'The RSA-OAEP (SHA-256) public key to encrypt the password with before sign-in',
    tag: TAG,
    auth: 'none',
    response: publicKeyOutput,
    handle: async ({ caller }) => ({
      message: 'Encrypt the password with this key and send it as enc:<kid>:<base64url ciphertext>.',
      data: await caller.auth.publicKey(),
    }),
  },
  {
    method: 'post',
    path: '/auth/sign-in',
    summary: 'Sign in with email, password (plain, or encrypted with the public key) and role (1 dietitian, 2 client)',
    tag: TAG,
    auth: 'none',
    request: { body: signInInput },
    response: signInData,
    errors: { 401: 'Incorrect email or password, or a deactivated account', 429: 'Too many sign-in attempts (see Retry-After)' },
    handle: async ({ caller, body }) => caller.auth.signIn(untrusted(body)),
  },
  {
    method: 'post',
    path: '/auth/refresh-token',
    summary: 'Exchange a refresh token for a new session and refresh token (the old one stops working)',
    tag: TAG,
    auth: 'none',
    request: { body: refreshInput },
    response: sessionData,
    errors: {
      401: 'The refresh token expired, was revoked, or was already used (which signs the whole session out)',
      429: 'Too many renewals of this sign-in or from this address (RATE_LIMIT_REFRESH_*; see Retry-After)',
    },
    handle: async ({ caller, body }) => caller.auth.refresh(untrusted(body)),
  },
  {
    method: 'get',
    path: '/auth/check-authorization',
    summary: 'The signed-in user, if the session token is still valid',
    tag: TAG,
    auth: 'required',
    response: authUser,
    handle: async ({ caller }) => caller.auth.checkAuthorization(),
  },
  {
    method: 'get',
    path: '/auth/devices',
    summary: 'The own signed-in devices (sign-ins that can still be renewed), newest activity first, this one marked current',
    tag: TAG,
    auth: 'required',
    response: z.array(deviceOutput),
    handle: async ({ caller }) => ({ message: 'Your signed-in devices', data: await caller.auth.devices() }),
  },
  {
    method: 'put',
    path: '/auth/sign-out',
    summary: 'End this sign-in (every token it issued); send the refresh token when the session token has expired',
    tag: TAG,
    auth: 'optional',
    request: { body: signOutInput.unwrap() },
    errors: { 401: 'Neither a valid session token nor a refresh token was sent' },
    handle: async ({ caller, body, c }) => {
      for (const [name, value] of Object.entries(SIGN_OUT_HEADERS)) c.header(name, value);
      return caller.auth.signOut(untrusted(body));
    },
  },
  {
    method: 'post',
    path: '/auth/forgot-password',
    summary: 'Mail a single-use password reset link (same answer whether or not the email has an account)',
    tag: TAG,
    auth: 'none',
    request: { body: forgotPasswordInput },
    errors: { 429: 'Too many reset requests from this address or for this email (see Retry-After)' },
    handle: async ({ caller, body }) => caller.auth.forgotPassword(untrusted(body)),
  },
  {
    method: 'post',
    path: '/auth/reset-password',
    summary: 'Set a new password with the token from the reset link; signs the account out everywhere',
    tag: TAG,
    auth: 'none',
    request: { body: resetPasswordInput },
    errors: { 429: 'Too many passwords are being checked for this address or account right now (see Retry-After)' },
    handle: async ({ caller, body }) => caller.auth.resetPassword(untrusted(body)),
  },
]);

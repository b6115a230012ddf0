import { insertPasswordReset } from '../auth/repo.js';
import { publicBaseUrl } from '../http/public-url.js';
import { newToken } from '../auth/sessions-repo.js';
import { BRAND } from '../brand.js';
import type { AppDeps } from '../deps.js';
import type { Db } from '../db/index.js';
import type { Mail } from '../mail/mailer.js';

/**
 * A new client has no password: the welcome mail carries a set-password link.
 * It is a password reset link (the auth domain's table, hashing and
 * /reset-password page), valid longer than a forgot-password one because a
 * welcome mail may sit unread for a few days.
 */
export const INVITE_TTL_DAYS = 7;

/** Creates the link's token inside the caller's transaction; the mail goes out after commit. */
export async function createSetPasswordLink(trx: Db, deps: Pick<AppDeps, 'config'>, userId: number, now = new Date()) {
  const token = newToken();
  await insertPasswordReset(trx, userId, token, new Date(now.getTime() + INVITE_TTL_DAYS * 24 * 60 * 60 * 1000));
  return `${publicBaseUrl(deps)}/reset-password?token=${encodeURIComponent(token)}`;
}

export function welcomeMail(opts: { to: string; firstName: string; link: string; dietitianName: string }): Mail {
  return {
    to: opts.to,
    subject: `Welcome to ${BRAND.name}: set your password`,
    text: [
      `Hello ${opts.firstName},`,
      '',
      `${opts.dietitianName} has opened your ${BRAND.name} account. Open this link to choose your password.`,
      `It works once, within the next ${INVITE_TTL_DAYS} days:`,
      '',
      opts.link,
      '',
      `Then sign in with ${opts.to} to see your diet plans, track your weight and follow our posts.`,
      'If the link has expired, use "Forgot password" on the login page, or reply to this mail.',
      '',
      `${BRAND.name} · ${BRAND.supportEmail}`,
    ].join('\n'),
    sensitive: [opts.link],
  };
}

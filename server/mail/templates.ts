import { BRAND } from '../brand.js';
import type { Mail } from './mailer.js';

/** Plain-text mails, written for the person who receives them. */

export function passwordResetMail(opts: { to: string; firstName: string; link: string; validMinutes: number }): Mail {
  const greeting = opts.firstName ? `Hello ${opts.firstName},` : 'Hello,';
  return {
    to: opts.to,
    subject: `Reset your ${BRAND.name} password`,
    text: [
      greeting,
      '',
      `Someone (hopefully you) asked to reset the password of your ${BRAND.name} account.`,
      `Open this link to choose a new password. It works once, within the next ${opts.validMinutes} minutes:`,
      '',
      opts.link,
      '',
      'If you did not ask for this, you can ignore this email: your password stays the same.',
      '',
      `${BRAND.name} · ${BRAND.supportEmail}`,
    ].join('\n'),
  };
}

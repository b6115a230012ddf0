import { BRAND } from '../brand.js';
import { formatDay } from '../format.js';
import { composeMail, type MailBlock } from '../mail/compose.js';
import type { Mail } from '../mail/mailer.js';

/**
 * The follow-up loop's mails (issue 13), plain text and HTML from the same
 * blocks in the shared branded layout.
 */

/** The product's one date format, '23 Nov 2026' (toLocaleDateString's en-IN says 'Sept' for September). */
const formatMailDay = formatDay;

type Link = { label: string; href: string };

/** The shared branded layout (server/mail/compose.ts): paragraphs, an optional quoted reply, an optional button. */
function compose(opts: { to: string; subject: string; firstName: string; paragraphs: string[]; quote?: string; link?: Link }): Mail {
  const blocks: MailBlock[] = [...opts.paragraphs];
  if (opts.quote) blocks.push(`“${opts.quote}”`);
  if (opts.link) blocks.push({ button: opts.link });
  return composeMail({ to: opts.to, subject: opts.subject, greetingName: opts.firstName, blocks });
}

type Recipient = { to: string; firstName: string; publicUrl?: string };
const checkInLink = (r: Recipient): Link | undefined =>
  r.publicUrl ? { label: 'Open your check-in', href: `${r.publicUrl.replace(/\/+$/, '')}/dashboard/check-in` } : undefined;

export function replyMail(r: Recipient & { checkInDate: string; reply: string; dietitianName: string }): Mail {
  return compose({
    to: r.to,
    firstName: r.firstName,
    subject: `${r.dietitianName} replied to your check-in`,
    paragraphs: [`${r.dietitianName} replied to your check-in of ${formatMailDay(r.checkInDate)}:`],
    quote: r.reply,
    link: checkInLink(r),
  });
}

export function checkInDueMail(r: Recipient & { dueDate: string }): Mail {
  return compose({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${BRAND.name} check-in is due today`,
    paragraphs: [
      `Your check-in is due today (${formatMailDay(r.dueDate)}). It takes a minute: today's weight, how closely you followed your plan, and anything you want your dietitian to know.`,
    ],
    link: checkInLink(r),
  });
}

export function checkInOverdueMail(r: Recipient & { dueDate: string; daysOverdue: number }): Mail {
  return compose({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${BRAND.name} check-in is ${r.daysOverdue} days overdue`,
    paragraphs: [
      `Your check-in was due on ${formatMailDay(r.dueDate)}. Your dietitian adjusts your plan from it, so please send it when you can.`,
    ],
    link: checkInLink(r),
  });
}

const inDays = (n: number) => (n === 0 ? 'today' : n === 1 ? 'tomorrow' : `in ${n} days`);

/** The subscription is about to end: `daysLeft` before its last day (0 on the day itself). */
export function renewalMail(r: Recipient & { planName: string; endDate: string; daysLeft: number }): Mail {
  return compose({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${r.planName} ends on ${formatMailDay(r.endDate)}`,
    paragraphs: [
      `Your ${r.planName} ends on ${formatMailDay(r.endDate)}, ${inDays(r.daysLeft)}. To keep your plan and follow-ups going, reply to this mail or write to ${BRAND.supportEmail} and we will renew it.`,
    ],
  });
}

export function pausedMail(r: Recipient & { planName: string; pausedFrom: string; reason: string | null }): Mail {
  return compose({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${r.planName} is paused`,
    paragraphs: [
      `Your ${r.planName} is paused from ${formatMailDay(r.pausedFrom)}. No check-ins are due while it is paused, and the days it stays paused are added to its end date when it resumes.`,
      ...(r.reason ? [`Reason: ${r.reason}`] : []),
    ],
  });
}

export function resumedMail(r: Recipient & { planName: string; resumedOn: string; pausedDays: number; endDate: string }): Mail {
  return compose({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${r.planName} has resumed`,
    paragraphs: [
      `Your ${r.planName} resumed on ${formatMailDay(r.resumedOn)}. It was paused for ${r.pausedDays} ${r.pausedDays === 1 ? 'day' : 'days'}, so it now ends on ${formatMailDay(r.endDate)}.`,
    ],
    link: checkInLink(r),
  });
}

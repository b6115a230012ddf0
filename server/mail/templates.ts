import { BRAND } from '../brand.js';
import { formatDay } from '../format.js';
import { composeMail, type MailBlock } from './compose.js';
import type { Mail } from './mailer.js';
import { mailSafeName } from '../consultation/schema.js';

/** Every mail the service sends, in plain text and branded HTML (compose.ts), written for the person who receives them. */

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
    sensitive: [opts.link],
  };
}

export function passwordChangedMail(opts: { to: string; firstName: string; when: string; device: string; forgotLink: string }): Mail {
  return composeMail({
    to: opts.to,
    subject: `Your ${BRAND.name} password was changed`,
    greetingName: opts.firstName,
    blocks: [
      `The password of your ${BRAND.name} account was changed on ${opts.when} from ${opts.device}.`,
      'Every other device signed in to your account has been signed out. Sign in there again with the new password.',
      { heading: 'Was this not you?' },
      'Reset your password at once with the link below, then write to us so we can check your account.',
      { button: { label: 'Reset my password', href: opts.forgotLink } },
    ],
  });
}

const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', maximumFractionDigits: 0 });

export function subscriptionAssignedMail(opts: {
  to: string;
  firstName: string;
  planName: string;
  startDate: string;
  endDate: string;
  amountReceived: number;
  link: string;
}): Mail {
  return composeMail({
    to: opts.to,
    subject: `Your ${opts.planName} is confirmed`,
    greetingName: opts.firstName,
    blocks: [
      `Welcome aboard! Your dietitian has put you on the ${opts.planName}.`,
      {
        facts: [
          ['Plan', opts.planName],
          ['Starts', formatDay(opts.startDate)],
          ['Ends', formatDay(opts.endDate)],
          ['Amount paid', rupees.format(opts.amountReceived)],
        ],
      },
      { heading: 'What happens next' },
      {
        steps: [
          'Your dietitian prepares your diet plan; we will email you as soon as it is ready.',
          'Log your weight once a week under Update Weight, so your dietitian can follow your progress.',
          'Questions at any time: reply to this email or use Contact Us.',
        ],
      },
      { button: { label: 'See my subscription', href: opts.link } },
    ],
  });
}

export function dietPlanPublishedMail(opts: {
  to: string;
  firstName: string;
  title: string;
  fromDay: string;
  toDay: string;
  version: number;
  link: string;
}): Mail {
  const updated = opts.version > 1;
  return composeMail({
    to: opts.to,
    subject: updated ? `Your diet plan "${opts.title}" was updated` : `Your new diet plan "${opts.title}" is ready`,
    greetingName: opts.firstName,
    blocks: [
      updated
        ? `Your dietitian has updated your diet plan. Version ${opts.version} replaces the one you had.`
        : 'Your dietitian has prepared a new diet plan for you.',
      {
        facts: [
          ['Plan', opts.title],
          ['For', `${formatDay(opts.fromDay)} – ${formatDay(opts.toDay)}`],
        ],
      },
      'Open My Diet Plans to read it or download it as a PDF.',
      { button: { label: 'Open My Diet Plans', href: opts.link } },
    ],
  });
}

/** A visitor's held, unconfirmed time was booked by a client: their request stays, as a callback request. */
export function heldTimeGivenAwayMail(opts: { to: string; name: string; bookingId: number; when: string }): Mail {
  return composeMail({
    to: opts.to,
    subject: `The time you picked is no longer free (request #${opts.bookingId})`,
    greetingName: mailSafeName(opts.name, undefined),
    blocks: [
      `We were holding ${opts.when} for your free consultation, but it was not confirmed yet, and it has now been booked by someone else. We are sorry.`,
      `Your request #${opts.bookingId} is still with us: a dietitian will call you to agree another time. You can also book a new time on our website.`,
    ],
  });
}

/** A dietitian's answer to a Contact Us request, quoting the question. */
export function supportReplyMail(opts: { to: string; name: string; question: string; reply: string; dietitian: string }): Mail {
  const quoted = opts.question
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return {
    to: opts.to,
    subject: `Re: your message to ${BRAND.name}`,
    text: [
      `Hello ${opts.name},`,
      '',
      opts.reply,
      '',
      `${opts.dietitian}`,
      `${BRAND.name} · ${BRAND.supportEmail}`,
      '',
      'You wrote:',
      quoted,
    ].join('\n'),
  };
}

/* The follow-up loop's mails: check-in reply and reminders, renewal, pause and resume. */

type Link = { label: string; href: string };

/** The shared branded layout: paragraphs, an optional quoted reply, an optional button. */
function composeFollowUp(opts: {
  to: string;
  subject: string;
  firstName: string;
  paragraphs: string[];
  quote?: string;
  link?: Link;
}): Mail {
  const blocks: MailBlock[] = [...opts.paragraphs];
  if (opts.quote) blocks.push(`“${opts.quote}”`);
  if (opts.link) blocks.push({ button: opts.link });
  return composeMail({ to: opts.to, subject: opts.subject, greetingName: opts.firstName, blocks });
}

type Recipient = { to: string; firstName: string; publicUrl?: string };
const checkInLink = (r: Recipient): Link | undefined =>
  r.publicUrl ? { label: 'Open your check-in', href: `${r.publicUrl.replace(/\/+$/, '')}/dashboard/check-in` } : undefined;

export function checkInReplyMail(r: Recipient & { checkInDate: string; reply: string; dietitianName: string }): Mail {
  return composeFollowUp({
    to: r.to,
    firstName: r.firstName,
    subject: `${r.dietitianName} replied to your check-in`,
    paragraphs: [`${r.dietitianName} replied to your check-in of ${formatDay(r.checkInDate)}:`],
    quote: r.reply,
    link: checkInLink(r),
  });
}

export function checkInDueMail(r: Recipient & { dueDate: string }): Mail {
  return composeFollowUp({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${BRAND.name} check-in is due today`,
    paragraphs: [
      `Your check-in is due today (${formatDay(r.dueDate)}). It takes a minute: today's weight, how closely you followed your plan, and anything you want your dietitian to know.`,
    ],
    link: checkInLink(r),
  });
}

export function checkInOverdueMail(r: Recipient & { dueDate: string; daysOverdue: number }): Mail {
  return composeFollowUp({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${BRAND.name} check-in is ${r.daysOverdue} days overdue`,
    paragraphs: [
      `Your check-in was due on ${formatDay(r.dueDate)}. Your dietitian adjusts your plan from it, so please send it when you can.`,
    ],
    link: checkInLink(r),
  });
}

const inDays = (n: number) => (n === 0 ? 'today' : n === 1 ? 'tomorrow' : `in ${n} days`);

/** The subscription is about to end: `daysLeft` before its last day (0 on the day itself). */
export function renewalMail(r: Recipient & { planName: string; endDate: string; daysLeft: number }): Mail {
  return composeFollowUp({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${r.planName} ends on ${formatDay(r.endDate)}`,
    paragraphs: [
      `Your ${r.planName} ends on ${formatDay(r.endDate)}, ${inDays(r.daysLeft)}. To keep your plan and follow-ups going, reply to this mail or write to ${BRAND.supportEmail} and we will renew it.`,
    ],
  });
}

export function subscriptionPausedMail(r: Recipient & { planName: string; pausedFrom: string; reason: string | null }): Mail {
  return composeFollowUp({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${r.planName} is paused`,
    paragraphs: [
      `Your ${r.planName} is paused from ${formatDay(r.pausedFrom)}. No check-ins are due while it is paused, and the days it stays paused are added to its end date when it resumes.`,
      ...(r.reason ? [`Reason: ${r.reason}`] : []),
    ],
  });
}

export function subscriptionResumedMail(r: Recipient & { planName: string; resumedOn: string; pausedDays: number; endDate: string }): Mail {
  return composeFollowUp({
    to: r.to,
    firstName: r.firstName,
    subject: `Your ${r.planName} has resumed`,
    paragraphs: [
      `Your ${r.planName} resumed on ${formatDay(r.resumedOn)}. It was paused for ${r.pausedDays} ${r.pausedDays === 1 ? 'day' : 'days'}, so it now ends on ${formatDay(r.endDate)}.`,
    ],
    link: checkInLink(r),
  });
}

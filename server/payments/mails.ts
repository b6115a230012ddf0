import { BRAND } from '../brand.js';
import { formatDay } from '../format.js';
import { composeMail } from '../mail/compose.js';
import type { Mail } from '../mail/mailer.js';
import { formatPaise } from './money.js';

/**
 * The payment mails. They name the invoice number and the amount, never the
 * plan: a plan's name ("Diabetes Management") is health data, and a mail is
 * not the place for it. The details are one tap away, behind sign-in.
 */

type Party = { to: string; firstName: string; link: string };

export function invoiceIssuedMail(p: Party & { number: string; totalPaise: number; dueOn: string }): Mail {
  return composeMail({
    to: p.to,
    subject: `Invoice ${p.number} from ${BRAND.name}`,
    greetingName: p.firstName,
    blocks: [
      'Your dietitian has sent you an invoice. You can pay it with any UPI app: scan the QR code or tap "Pay with a UPI app" on your Payments page, then enter the UTR your app shows.',
      {
        facts: [
          ['Invoice', p.number],
          ['Amount', formatPaise(p.totalPaise)],
          ['Due', formatDay(p.dueOn)],
        ],
      },
      { button: { label: 'Pay now', href: p.link } },
    ],
  });
}

export function paymentClaimedMail(p: Party & { number: string; totalPaise: number }): Mail {
  return composeMail({
    to: p.to,
    subject: `Payment claimed for ${p.number}: please confirm`,
    greetingName: p.firstName,
    blocks: [
      `Your client says they have paid invoice ${p.number} (${formatPaise(p.totalPaise)}) by UPI. Check the UTR against your bank statement, then confirm or reject it in the console.`,
      { button: { label: 'Open Payments', href: p.link } },
    ],
  });
}

export function paymentConfirmedMail(p: Party & { number: string; totalPaise: number; planStarted: boolean }): Mail {
  return composeMail({
    to: p.to,
    subject: `Payment received for ${p.number}`,
    greetingName: p.firstName,
    blocks: [
      `Thank you! We have received ${formatPaise(p.totalPaise)} for invoice ${p.number}. Your receipt is on your Payments page.`,
      ...(p.planStarted ? ['Your plan is active: see Active Subscription for its dates.'] : []),
      { button: { label: 'See my payments', href: p.link } },
    ],
  });
}

export function paymentRejectedMail(p: Party & { number: string; reason: string }): Mail {
  return composeMail({
    to: p.to,
    subject: `We could not confirm your payment for ${p.number}`,
    greetingName: p.firstName,
    blocks: [
      `Your dietitian could not match your payment for invoice ${p.number} with the bank statement.`,
      { facts: [['Their note', p.reason]] },
      'If you did pay, enter the UTR from your UPI app again (check the 12 digits), or reply to this email.',
      { button: { label: 'Open Payments', href: p.link } },
    ],
  });
}

export function invoiceVoidedMail(p: Party & { number: string; reason: string }): Mail {
  return composeMail({
    to: p.to,
    subject: `Invoice ${p.number} was cancelled`,
    greetingName: p.firstName,
    blocks: [
      `Invoice ${p.number} was cancelled, so there is nothing to pay for it.`,
      { facts: [['Reason', p.reason]] },
      { button: { label: 'See my payments', href: p.link } },
    ],
  });
}

import { BRAND } from '../brand.js';
import { composeMail, type MailBlock } from '../mail/compose.js';
import type { Mail } from '../mail/mailer.js';
import { mailSafeName, type VisitorState, visitorWords } from './schema.js';

/**
 * The mail a visitor gets when their request is stored: one per state of the request (a time held until
 * they confirm it, a time not held, a callback request), each written from the same words as the
 * confirmation screen (visitorWords), so the screen and the mail cannot contradict each other.
 */
export function requestReceivedMail(opts: {
  to: string;
  name: string;
  bookingId: number;
  state: Exclude<VisitorState, { state: 'booked' }>;
  /** The signed link that confirms a held time (the held state only). */
  confirmUrl?: string;
}): Mail {
  const words = visitorWords(opts.state);
  const blocks: MailBlock[] = [words.lead];
  if (opts.state.state === 'held' && opts.confirmUrl) blocks.push({ button: { label: 'Confirm my time', href: opts.confirmUrl } });
  blocks.push(
    { heading: 'What happens next' },
    { steps: words.steps },
    `Your request number is #${opts.bookingId}. If the number we will call is wrong or you would like to add something, reply to this email or write to ${BRAND.supportEmail}.`,
  );
  return composeMail({
    to: opts.to,
    subject: `${words.title} (request #${opts.bookingId})`,
    greetingName: mailSafeName(opts.name, undefined),
    blocks,
  });
}

import { createEvent, type EventAttributes } from 'ics';
import { BRAND } from '../brand.js';
import { composeMail } from '../mail/compose.js';
import type { Mail, MailAttachment } from '../mail/mailer.js';
import { visitorWords } from '../consultation/schema.js';
import { APPOINTMENT_KIND_LABELS } from './schema.js';
import { SERVICE_TIME_ZONE } from '../time.js';

/**
 * The appointment mails and their .ics invitation (decision 119). They name
 * the kind of session, its time and the dietitian, never anything about the
 * client's health. The invitation's UID is the appointment's, and its
 * SEQUENCE grows with every change, so a calendar updates (or cancels) the
 * event it already holds instead of adding a second.
 */

export type MailAppointment = {
  id: number;
  kind: 'consultation' | 'follow_up';
  start: Date;
  end: Date;
  dietitianName: string;
  dietitianEmail: string;
  /** Grows with each change of the appointment (its last update in seconds). */
  sequence: number;
  callPath: string;
};

export type MailEvent = 'booked' | 'moved' | 'cancelled' | 'reminder-24h' | 'reminder-1h';

const HOST = 'poshan.example';

const toArray = (d: Date): [number, number, number, number, number] => [
  d.getUTCFullYear(),
  d.getUTCMonth() + 1,
  d.getUTCDate(),
  d.getUTCHours(),
  d.getUTCMinutes(),
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to drop control characters (a tab may stay)
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * A name as an iCalendar parameter value (CN=…), encoded as RFC 6868 says:
 * a quoted parameter value cannot hold a double quote or a line break, and
 * the `ics` library only backslash-escapes quotes, which calendars read as the
 * end of the value. `^` becomes `^^`, a line break `^n`, `"` becomes `^'`;
 * other control characters have no encoding there and are dropped.
 */
export function icsParamText(value: string): string {
  return value
    .replace(/\^/g, '^^')
    .replace(/\r\n|\r|\n/g, '^n')
    .replace(/"/g, "^'")
    .replace(CONTROL_CHARACTERS, '');
}

/** The appointment as an iCalendar file: a request, or a cancellation of the same UID. */
export function appointmentIcs(
  a: MailAppointment,
  opts: {
    cancelled: boolean;
    publicUrl?: string;
    /** The call's address when it is not the app's call page (a visitor's link). */
    callUrl?: string;
    attendee?: { name: string; email: string };
  },
): string {
  const url = opts.callUrl ?? (opts.publicUrl ? `${opts.publicUrl.replace(/\/+$/, '')}${a.callPath}` : undefined);
  const event: EventAttributes = {
    uid: `appointment-${a.id}@${HOST}`,
    productId: `${BRAND.name}/appointments`,
    method: opts.cancelled ? 'CANCEL' : 'REQUEST',
    sequence: a.sequence,
    start: toArray(a.start),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: toArray(a.end),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: `${BRAND.name}: ${APPOINTMENT_KIND_LABELS[a.kind]} with ${a.dietitianName}`,
    description: url ? `Join the video call at ${url}` : `Join the video call from your ${BRAND.name} dashboard.`,
    ...(url ? { url, location: url } : {}),
    status: opts.cancelled ? 'CANCELLED' : 'CONFIRMED',
    busyStatus: 'BUSY',
    organizer: { name: icsParamText(a.dietitianName), email: BRAND.supportEmail },
    ...(opts.attendee
      ? {
          attendees: [
            {
              name: icsParamText(opts.attendee.name),
              email: opts.attendee.email,
              rsvp: false,
              partstat: 'ACCEPTED',
              role: 'REQ-PARTICIPANT',
            },
          ],
        }
      : {}),
  };
  const { error, value } = createEvent(event);
  if (error || !value) throw error ?? new Error('The calendar file could not be made');
  return value;
}

export function icsAttachment(a: MailAppointment, ics: string): MailAttachment {
  return { filename: `appointment-${a.id}.ics`, contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ics };
}

/** "Tue, 1 Dec 2026, 10:00 GST" in a time zone. */
export function formatWhen(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(at);
}

/** The time as the person reads it, with India time beside it when their zone is another. */
export function whenText(at: Date, timeZone?: string): string {
  const india = formatWhen(at, SERVICE_TIME_ZONE).replace('GMT+5:30', 'IST');
  if (!timeZone || timeZone === SERVICE_TIME_ZONE) return india;
  return `${formatWhen(at, timeZone)} (${india} in India)`;
}

const SUBJECTS: Record<MailEvent, (kind: string) => string> = {
  booked: (kind) => `Your ${kind.toLowerCase()} is booked`,
  moved: (kind) => `Your ${kind.toLowerCase()} has moved`,
  cancelled: (kind) => `Your ${kind.toLowerCase()} is cancelled`,
  'reminder-24h': (kind) => `Reminder: your ${kind.toLowerCase()} is tomorrow`,
  'reminder-1h': (kind) => `Your ${kind.toLowerCase()} starts in an hour`,
};

/** The mail to the client or visitor for one event of their appointment, with the .ics when the calendar should change. */
export function appointmentMail(opts: {
  event: MailEvent;
  to: string;
  name: string;
  appointment: MailAppointment;
  timeZone?: string;
  publicUrl?: string;
  /** The dietitian's words with a move or cancellation, or the client's reason. */
  message?: string | null;
  previousStart?: Date;
  /** A visitor without an account: the booked mail says what the confirm page says. */
  visitor?: boolean;
  /** The call's address when it is not the signed-in call page (a visitor's guest link). */
  callUrl?: string;
}): Mail {
  const a = opts.appointment;
  const kind = APPOINTMENT_KIND_LABELS[a.kind];
  const base = opts.publicUrl?.replace(/\/+$/, '');
  const callUrl = opts.callUrl ?? (base ? `${base}${a.callPath}` : undefined);
  if (opts.visitor && opts.event === 'booked') return visitorBookedMail({ ...opts, callUrl });
  const when = whenText(a.start, opts.timeZone);
  const lines: string[] = [];
  if (opts.event === 'booked') lines.push(`Your ${kind.toLowerCase()} with ${a.dietitianName} is booked for ${when}.`);
  if (opts.event === 'moved')
    lines.push(
      `Your ${kind.toLowerCase()} with ${a.dietitianName} has moved${opts.previousStart ? ` from ${whenText(opts.previousStart, opts.timeZone)}` : ''} to ${when}.`,
    );
  if (opts.event === 'cancelled') lines.push(`Your ${kind.toLowerCase()} with ${a.dietitianName} on ${when} is cancelled.`);
  if (opts.event === 'reminder-24h') lines.push(`A reminder: your ${kind.toLowerCase()} with ${a.dietitianName} is at ${when}.`);
  if (opts.event === 'reminder-1h') lines.push(`Your ${kind.toLowerCase()} with ${a.dietitianName} starts at ${when}, in about an hour.`);
  if (opts.message) lines.push(`“${opts.message}”`);
  if (opts.event === 'booked' || opts.event === 'moved')
    lines.push('The attached invitation adds it to your calendar. The call page opens 10 minutes before the start.');
  if (opts.event === 'cancelled')
    lines.push('The attached file removes it from your calendar. You can book another time from your dashboard.');
  const blocks = [...lines] as Parameters<typeof composeMail>[0]['blocks'];
  if (callUrl && opts.event !== 'cancelled') blocks.push({ button: { label: 'Open the call page', href: callUrl } });
  if (base && opts.event === 'cancelled') blocks.push({ button: { label: 'Your appointments', href: `${base}/dashboard/appointments` } });
  const mail = composeMail({ to: opts.to, subject: SUBJECTS[opts.event](kind), greetingName: opts.name, blocks });
  if (opts.event === 'booked' || opts.event === 'moved' || opts.event === 'cancelled') {
    const ics = appointmentIcs(a, {
      cancelled: opts.event === 'cancelled',
      callUrl,
      attendee: { name: opts.name, email: opts.to },
    });
    const attachment = icsAttachment(a, ics);
    if (opts.event === 'cancelled') attachment.contentType = 'text/calendar; charset=utf-8; method=CANCEL';
    mail.attachments = [attachment];
  }
  return mail;
}

/**
 * A visitor's booked consultation: the words of the confirm page's booked screen (visitorWords), the
 * button to join the call, and the invitation, so the mail and the screen say the same.
 */
function visitorBookedMail(opts: { to: string; name: string; appointment: MailAppointment; timeZone?: string; callUrl?: string }): Mail {
  const a = opts.appointment;
  const words = visitorWords({ state: 'booked', start: a.start, dietitianName: a.dietitianName, tz: opts.timeZone });
  const blocks: Parameters<typeof composeMail>[0]['blocks'] = [words.lead];
  if (opts.callUrl) blocks.push({ button: { label: 'Join the video call', href: opts.callUrl } });
  blocks.push({ heading: 'What happens next' }, { steps: words.steps });
  const mail = composeMail({ to: opts.to, subject: words.title, greetingName: opts.name, blocks });
  mail.attachments = [
    icsAttachment(a, appointmentIcs(a, { cancelled: false, callUrl: opts.callUrl, attendee: { name: opts.name, email: opts.to } })),
  ];
  return mail;
}

/** The dietitian's copy: who booked, moved or cancelled, and when (names and times only). */
export function dietitianMail(opts: {
  event: 'booked' | 'moved' | 'cancelled';
  to: string;
  dietitianName: string;
  personName: string;
  appointment: MailAppointment;
  publicUrl?: string;
}): Mail {
  const a = opts.appointment;
  const kind = APPOINTMENT_KIND_LABELS[a.kind].toLowerCase();
  const verb = { booked: 'booked', moved: 'moved', cancelled: 'cancelled' }[opts.event];
  const base = opts.publicUrl?.replace(/\/+$/, '');
  const blocks: Parameters<typeof composeMail>[0]['blocks'] = [`${opts.personName} ${verb} a ${kind} with you: ${whenText(a.start)}.`];
  if (base) blocks.push({ button: { label: 'Open the calendar', href: `${base}/admin/appointments` } });
  const mail = composeMail({ to: opts.to, subject: `${opts.personName} ${verb} a ${kind}`, greetingName: opts.dietitianName, blocks });
  const attachment = icsAttachment(a, appointmentIcs(a, { cancelled: opts.event === 'cancelled', publicUrl: opts.publicUrl }));
  if (opts.event === 'cancelled') attachment.contentType = 'text/calendar; charset=utf-8; method=CANCEL';
  mail.attachments = [attachment];
  return mail;
}

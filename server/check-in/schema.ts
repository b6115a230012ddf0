import { z } from 'zod';
import { journalAdherence } from '../journal/schema.js';
import { weightDate, weightKg } from '../weight/schema.js';
import { dateField, idempotencyKey, idField, optionalText, plainText, requiredText } from '../validation.js';

/** Check-ins. zod only: the client's form imports this file. */

export const CHECK_IN_NOTES_MAX = 1000;
export const CHECK_IN_REPLY_MAX = 2000;
/** A client's history is capped: years of weekly check-ins fit. */
export const CHECK_IN_HISTORY_LIMIT = 200;

/** How closely the plan was followed, with words for each step. */
export const ADHERENCE_LABELS = {
  1: 'Hardly at all',
  2: 'Some days',
  3: 'About half the time',
  4: 'Most days',
  5: 'Every day',
} as const satisfies Record<1 | 2 | 3 | 4 | 5, string>;
export type Adherence = keyof typeof ADHERENCE_LABELS;

const ADHERENCE_MESSAGE = 'Adherence must be a whole number from 1 to 5';
export const adherenceField = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim())) : v),
  z
    .number({ error: (iss) => (iss.input == null ? 'Adherence is required' : ADHERENCE_MESSAGE) })
    .int(ADHERENCE_MESSAGE)
    .min(1, ADHERENCE_MESSAGE)
    .max(5, ADHERENCE_MESSAGE),
);

export const checkInNotes = z
  .string({ error: 'Notes must be text' })
  .trim()
  .max(CHECK_IN_NOTES_MAX, `Notes must be at most ${CHECK_IN_NOTES_MAX.toLocaleString('en-IN')} characters`)
  .pipe(plainText('Notes', { multiline: true }))
  .nullish()
  .transform((v) => (v ? v : null));

/** The Check-in form (the signed-in client is the one checking in). */
export const checkInForm = z.object({
  weight: weightKg,
  adherence: adherenceField,
  notes: checkInNotes,
});

export const createCheckInInput = checkInForm.extend({
  /** Who checks in: the client itself (may be left out) or, for a dietitian, the client named. */
  clientId: idField('clientId').optional(),
  /** The client's own today (their time zone); defaults to today in UTC. The weight is recorded on this day. */
  date: weightDate.optional(),
  /**
   * The sender's own key for this check-in, made once per submission and sent
   * again on a retry: a repeat returns the first check-in (200 over REST)
   * instead of storing a second. Optional so callers written before it keep
   * working (the REST shape of check-ins had no key); without it every send is
   * a new check-in. The app's own form always sends one.
   */
  clientRequestId: idempotencyKey('clientRequestId').optional(),
});
export const listCheckInsInput = z.object({ clientId: idField('clientId').optional() });

export const checkIn = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  date: z.string(),
  weight: z.number(),
  adherence: z.number().int(),
  notes: z.string().nullable(),
  reply: z.string().nullable(),
  repliedAt: z.date().nullable(),
  repliedBy: z.string().nullable(),
  createdAt: z.date(),
});

/** What sending a check-in answers: the check-in, and whether this was a repeat of an earlier send with the same clientRequestId. */
export const sentCheckIn = checkIn.extend({ repeated: z.boolean() });

export const CHECK_IN_STATES = ['overdue', 'due', 'upcoming', 'paused', 'no-plan'] as const;
export const nextCheckIn = z.object({
  state: z.enum(CHECK_IN_STATES),
  /** The day the next check-in is due (absent while paused or without a plan). */
  dueDate: z.string().nullable(),
  pausedSince: z.string().nullable(),
  everyDays: z.number().int().nullable(),
});

export const checkInOverview = z.object({
  next: nextCheckIn,
  history: z.array(checkIn),
});

export type CreateCheckInInput = z.infer<typeof createCheckInInput>;
export type CheckIn = z.infer<typeof checkIn>;
export type SentCheckIn = z.infer<typeof sentCheckIn>;
export type NextCheckIn = z.infer<typeof nextCheckIn>;

/** Live events for a client's own Check-in page. */
export type CheckInEvent = { kind: 'ready' } | { kind: 'check-in.replied'; checkInId: number } | { kind: 'changed' };

/* The dietitians' follow-up queue, as the check-in domain builds it. */

/** Days of weights behind each row's small trend chart. */
export const FOLLOW_UP_TREND_DAYS = 120;

export const FOLLOW_UP_STATES = ['overdue', 'due', 'upcoming', 'paused'] as const;
export const followUpRow = z.object({
  clientId: z.number().int(),
  name: z.string(),
  subscriptionId: z.number().int(),
  planName: z.string(),
  endDate: z.string(),
  state: z.enum(FOLLOW_UP_STATES),
  dueDate: z.string().nullable(),
  daysOverdue: z.number().int(),
  everyDays: z.number().int(),
  pausedSince: z.string().nullable(),
  pauseReason: z.string().nullable(),
  lastCheckIn: checkIn.omit({ repliedBy: true }).nullable(),
  weights: z.array(z.object({ date: z.string(), weight: z.number() })),
  lastContactAt: z.date().nullable(),
  daysSinceContact: z.number().int().nullable(),
  /** The meal journal: days logged of the last 7, and the last day logged. */
  journal: journalAdherence,
  /** The client has not finished the intake questionnaire. */
  intakeMissing: z.boolean(),
});
export type FollowUpRow = z.infer<typeof followUpRow>;

/**
 * The dietitian's daily work in the queue, as the console's Overview counts
 * it and the Follow-ups page filters it (?show=awaiting-reply, ?show=overdue).
 */
export const FOLLOW_UP_VIEWS = {
  'awaiting-reply': {
    label: 'Awaiting a reply',
    includes: (row: Pick<FollowUpRow, 'lastCheckIn'>) => row.lastCheckIn !== null && row.lastCheckIn.reply === null,
  },
  overdue: { label: 'Overdue', includes: (row: Pick<FollowUpRow, 'state'>) => row.state === 'overdue' },
  'no-meals': { label: 'No meals logged', includes: (row: Pick<FollowUpRow, 'journal'>) => row.journal.daysLogged === 0 },
} as const;
export type FollowUpView = keyof typeof FOLLOW_UP_VIEWS;
export const followUpViewHref = (view: FollowUpView) => `/follow-ups?show=${view}`;
export const followUpQueue = z.object({ today: z.string(), rows: z.array(followUpRow) });

/* The dietitians' follow-up queue: reply, pause and resume inputs, and what its live subscription sends. */

export const PAUSE_REASON_MAX = 500;

export const replyForm = z.object({ reply: requiredText('Reply is required', CHECK_IN_REPLY_MAX) });
export const replyInput = replyForm.extend({ checkInId: idField('checkInId') });

export const pauseForm = z.object({
  from: dateField('Pause date is required'),
  reason: optionalText('Reason', PAUSE_REASON_MAX),
});
export const pauseInput = pauseForm.extend({ subscriptionId: idField('subscriptionId') });
export const resumeInput = z.object({
  subscriptionId: idField('subscriptionId'),
  /** Defaults to today. */
  on: dateField('Resume date is required').optional(),
});

/** What the console's live subscription sends: reload the queue (and the named client's check-ins). */
export type FollowUpEvent =
  | { kind: 'ready' }
  | { kind: 'check-in.created' | 'check-in.replied' | 'schedule.changed' | 'contact'; clientId: number };

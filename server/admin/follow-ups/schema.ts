import { z } from 'zod';
import { CHECK_IN_REPLY_MAX, checkIn } from '../../check-in/schema.js';
import { dateField, idField, requiredText } from '../../validation.js';
import { optionalText } from '../common.js';

/** The dietitians' follow-up queue, replies, pause and resume (issue 13). zod only. */

export const PAUSE_REASON_MAX = 500;
/** Days of weights behind each row's small trend chart. */
export const FOLLOW_UP_TREND_DAYS = 120;

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
});
export type FollowUpRow = z.infer<typeof followUpRow>;
export const followUpQueue = z.object({ today: z.string(), rows: z.array(followUpRow) });

/** What the console's live subscription sends: reload the queue (and the named client's check-ins). */
export type FollowUpEvent = { kind: 'ready' } | { kind: 'check-in.created' | 'check-in.replied' | 'schedule.changed'; clientId: number };

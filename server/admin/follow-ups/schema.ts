import { z } from 'zod';
import { CHECK_IN_REPLY_MAX } from '../../check-in/schema.js';
import { dateField, idField, requiredText } from '../../validation.js';
import { optionalText } from '../common.js';

/**
 * The dietitians' follow-up queue: reply, pause and resume inputs.
 * zod only; the queue's shape lives in server/check-in/schema.ts.
 */

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

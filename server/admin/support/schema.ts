import { z } from 'zod';
import { idField, requiredText } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/** The support inbox. zod only. */
export const SUPPORT_STATUSES = ['open', 'answered'] as const;
export const REPLY_MAX = 5000;

export const listSupportInput = pageInput.extend({ status: z.enum(['all', ...SUPPORT_STATUSES]).default('open') });

export const replyForm = z.object({ reply: requiredText('Reply is required', REPLY_MAX, { multiline: true }) });
export const replySupportInput = replyForm.extend({ id: idField('id') });
export const setSupportStatusInput = z.object({
  id: idField('id'),
  status: z.enum(SUPPORT_STATUSES, { error: 'Status must be open or answered' }),
});

export const supportRequest = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  status: z.enum(SUPPORT_STATUSES),
  reply: z.string().nullable(),
  answeredAt: z.date().nullable(),
  answeredBy: z.string().nullable(),
  createdAt: z.date(),
});
export const supportPage = pageOf(supportRequest);

import { z } from 'zod';
import { idField, pageInput, pageOf, plainText } from '../../validation.js';

/** The audit trail screen. zod only. */
export const listAuditInput = pageInput.extend({
  entity: z.string().trim().max(40, 'entity must be at most 40 characters').pipe(plainText('entity')).optional(),
  entityId: idField('entityId').optional(),
});

export const auditEntry = z.object({
  id: z.number().int(),
  actorId: z.number().int().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.number().int().nullable(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.date(),
});
export const auditPage = pageOf(auditEntry);

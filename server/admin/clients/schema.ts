import { z } from 'zod';
import { CLIENT_STATUSES, clientForm, clientSummary } from '../../users/schema.js';
import { idField, plainText } from '../../validation.js';
import { pageInput, pageOf } from '../common.js';

/**
 * The console's client inputs. zod only. The client form's rules and the
 * shapes returned live in server/users/schema.ts.
 */

export const createClientInput = clientForm.extend({
  /** The booking this client came from: it is marked converted in the same transaction. */
  bookingId: idField('bookingId').optional(),
});
export const updateClientInput = clientForm.extend({ id: idField('id') });
export const setClientActiveInput = z.object({ id: idField('id'), active: z.boolean({ error: 'active must be true or false' }) });

export const listClientsInput = pageInput.extend({
  /** Prefix of the email, the full name, the last name or the phone number. */
  q: z.string().trim().max(100, 'Search at most 100 characters').pipe(plainText('Search')).optional(),
  status: z.enum(CLIENT_STATUSES).default('all'),
});

export const clientPage = pageOf(clientSummary);

export const clientWeights = z.array(z.object({ id: z.number().int(), weight: z.number(), date: z.string() }));

export const createdClient = z.object({
  id: z.number().int(),
  message: z.string(),
  /** The outbox id of the welcome mail with the set-password link. */
  outboxId: z.number().int(),
});

import type { DbHandle } from '../db/index.js';
import type { LiveStream } from '../realtime/live-channel.js';
import { createNotifySource, type NotifySource } from '../realtime/notify-source.js';
import { INVOICES_CHANNEL } from './repo.js';
import type { InvoiceEvent } from './schema.js';

/**
 * Invoices live (decision 109's channel): every committed invoice change
 * (issued, claimed, confirmed, rejected, void, paid online) NOTIFYs
 * `invoices` from inside its transaction (repo.notifyInvoiceChanged) with
 * ids only. A client hears of their own invoices, a dietitian of every one;
 * each reloads what it may see. Not resumable: a reconnecting page reloads
 * on 'ready'.
 */
export type InvoiceNote = { invoiceId: number; clientId: number };

const isId = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;
const isNote = (value: unknown): value is InvoiceNote => {
  const v = value as Partial<Record<string, unknown>> | null;
  return typeof v === 'object' && v !== null && isId(v.invoiceId) && isId(v.clientId);
};

export type InvoicesBus = NotifySource<InvoiceNote>;

export function createInvoicesBus(handle: DbHandle, onError: (err: Error) => void = () => {}): InvoicesBus {
  return createNotifySource(handle, { channel: INVOICES_CHANNEL, name: 'invoices', isNote, onError });
}

/** Who watches: a client (their own invoices) or a dietitian (all). */
export type InvoiceViewer = { userId: number; seesAll: boolean };

export const invoiceStream: LiveStream<InvoiceViewer, InvoiceNote, InvoiceEvent> = {
  name: 'invoices',
  ready: { kind: 'ready' },
  view: (viewer, n, views) =>
    viewer.seesAll || n.clientId === viewer.userId ? views.shared('changed', () => ({ kind: 'changed', invoiceId: n.invoiceId })) : null,
};

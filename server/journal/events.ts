import type { DbHandle } from '../db/index.js';
import type { Db } from '../db/index.js';
import type { LiveStream } from '../realtime/live-channel.js';
import { createNotifySource, type NotifySource } from '../realtime/notify-source.js';
import * as repo from './repo.js';
import { isJournalSignal, type JournalEvent, type JournalSignal } from './schema.js';

/**
 * Live journal (the channel is realtime/live-channel.ts). Every
 * committed change to a client's journal (an entry added, edited, deleted or
 * marked, a comment, water) notifies the `journal` channel from inside its
 * transaction, so the hint goes out only if the change commits. Payloads
 * hold ids and a date, never what was eaten: a screen reloads what it may see.
 */
export const JOURNAL_CHANNEL = 'journal';

export async function publishJournalSignal(trx: Db, signal: JournalSignal): Promise<void> {
  await repo.notifyJournal(trx, JOURNAL_CHANNEL, JSON.stringify(signal));
}

export type JournalBus = NotifySource<JournalSignal>;

export function createJournalBus(handle: DbHandle, onError: (err: Error) => void = () => {}): JournalBus {
  return createNotifySource(handle, { channel: JOURNAL_CHANNEL, name: 'journal', isNote: isJournalSignal, onError });
}

/** Who watches a journal: the client's own screen, or a dietitian's console page of that client. */
export type JournalViewer = { clientId: number };

/**
 * One client's journal live: a 'changed' per change, shared by everyone who
 * watches it. Not resumable: a screen reloads the day on 'ready'.
 */
export const journalStream: LiveStream<JournalViewer, JournalSignal, JournalEvent> = {
  name: 'journal',
  ready: { kind: 'ready' },
  topic: { of: (viewer) => String(viewer.clientId), note: (n) => String(n.clientId) },
  view: (viewer, n, views) =>
    n.clientId !== viewer.clientId
      ? null
      : views.shared('changed', () => ({ kind: 'changed', what: n.kind, entryId: n.entryId, date: n.date })),
};

import type { Db } from '../db/index.js';
import type { JournalSignal } from '../journal/schema.js';
import type { MessageNote } from '../messages/events.js';
import type { InvoiceNote } from '../payments/events.js';
import type { CareLoopNote, FollowUpNotification } from './bus.js';
import type { LiveSource } from '../realtime/live-channel.js';
import * as repo from './repo.js';

type Source<N> = Pick<LiveSource<N>, 'subscribe'>;

/**
 * The care loop's live source: the follow-up bus's own notes (check-ins,
 * replies, pauses, the care record), and what the other channels mean for
 * the follow-up queue and the console's counts. A message from a dietitian, a
 * journal comment and a session marked done may be a contact (the queue
 * reloads; repo.lastContacts decides what counts); any message, receipt,
 * meal, invoice or appointment change is activity (the Overview's counts reload). Every instance listens
 * to every channel already, so this adds no connection and misses nothing a
 * single source would not.
 */
export function careLoopSource(opts: {
  db: Db;
  followUps: Source<FollowUpNotification>;
  messages: Source<MessageNote>;
  journal: Source<JournalSignal>;
  invoices: Source<InvoiceNote>;
  appointments?: Source<{ clientId: number | null; what: string }>;
  onError?: (err: Error) => void;
}): LiveSource<CareLoopNote> {
  const onError = opts.onError ?? (() => {});
  return {
    subscribe(listener, missed) {
      const emit = (note: CareLoopNote) => {
        try {
          listener(note);
        } catch (err) {
          onError(err as Error);
        }
      };
      const offs = [
        opts.followUps.subscribe(emit, missed),
        opts.messages.subscribe((n) => {
          if (n.kind === 'typing') return;
          emit({ kind: 'activity', what: 'messages' });
          if (n.kind !== 'message') return;
          repo
            .messageSenderIn(opts.db, n.conversationId, n.seq)
            .then((row) => {
              if (row?.sender_role === 'dietitian') emit({ kind: 'contact', clientId: row.client_id });
            })
            .catch((err: Error) => onError(err));
        }, missed),
        opts.journal.subscribe((n) => {
          if (n.kind === 'comment') emit({ kind: 'contact', clientId: n.clientId });
          else if (n.kind === 'entry') emit({ kind: 'activity', what: 'meals' });
        }, missed),
        opts.invoices.subscribe(() => emit({ kind: 'activity', what: 'claims' }), missed),
      ];
      if (opts.appointments)
        offs.push(
          opts.appointments.subscribe((n) => {
            if (n.what === 'status' && n.clientId !== null) emit({ kind: 'contact', clientId: n.clientId });
          }, missed),
        );
      return () => {
        for (const off of offs) off();
      };
    },
  };
}

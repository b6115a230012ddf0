import type { LiveStream } from '../realtime/live-channel.js';
import type { CallNote } from './events.js';
import type { CallEvent, SeatsEvent } from './schema.js';
import type { CallViewer } from './service.js';

/**
 * One page's side of a call, live: the signals addressed to this page (by
 * its peer id, so a third page hears nothing), the other side leaving, and
 * this page being replaced by the same person's newer one. Not resumable:
 * a missed signal is recovered by the pages themselves (hello, ICE restart).
 */
export const callStream: LiveStream<CallViewer, CallNote, CallEvent> = {
  name: 'calls',
  ready: { kind: 'ready' },
  topic: { of: (viewer) => String(viewer.appointmentId), note: (n) => String(n.appointmentId) },
  view(viewer, n) {
    if (n.appointmentId !== viewer.appointmentId) return null;
    if (n.kind === 'revoked') return viewer.guest ? { kind: 'revoked' } : null;
    if (n.kind === 'signal') return n.toPeer === viewer.peerId ? { kind: 'signal', from: n.fromPeer, signal: n.signal } : null;
    if (n.side === viewer.side) return n.peerId !== null && n.peerId !== viewer.peerId ? { kind: 'replaced' } : null;
    return n.peerId === null ? { kind: 'left' } : null;
  },
};

/**
 * For the console: a hint that some call's places changed (someone came or
 * left), on which it loads the list of who is waiting (admin.calls.waiting).
 * Every dietitian hears every call's seats; the hint carries nothing else.
 */
export const seatsStream: LiveStream<Record<string, never>, CallNote, SeatsEvent> = {
  name: 'calls-seats',
  ready: { kind: 'ready' },
  view: (_viewer, n) => (n.kind === 'seat' ? { kind: 'seats' } : null),
};

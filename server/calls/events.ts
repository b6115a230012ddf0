import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, Db, DbHandle } from '../db/index.js';
import type { LiveSource } from '../realtime/live-channel.js';
import { createNotifySource } from '../realtime/notify-source.js';
import type { CallSide, CallSignal } from './schema.js';

/**
 * Call signalling between instances (decision 120): the `call_signals` NOTIFY.
 * A signal is the one thing our NOTIFY payloads carry beyond ids, because it
 * must never be stored: an offer or answer (a few kB) rides in pieces of at
 * most PIECE_BYTES, all sent in one transaction, so they arrive together and
 * in order on every instance, where the bus puts them back together.
 */
export const CALLS_CHANNEL = 'call_signals';
/** Bytes of a signal per notification (base64 makes 4/3 of it, well under NOTIFY's 8000-byte limit). */
const PIECE_BYTES = 4500;
/** A signal still missing pieces after this long is dropped (its transaction's notifications come together). */
const PIECES_KEPT_MS = 10_000;

/** What the bus hands to the call streams. */
export type CallNote =
  | { kind: 'signal'; appointmentId: number; toPeer: string; fromPeer: string; signal: CallSignal }
  /** A side's place was taken (peerId) or left (null). */
  | { kind: 'seat'; appointmentId: number; side: CallSide; peerId: string | null }
  /** The call's guest links were revoked: a guest's page leaves at once. */
  | { kind: 'revoked'; appointmentId: number };

/** On the wire: a seat change, or one piece of a signal. */
type WireNote =
  | { k: 'seat'; a: number; side: CallSide; peer: string | null }
  | { k: 'rev'; a: number }
  | { k: 'sig'; a: number; to: string; from: string; id: string; i: number; n: number; d: string };

const isId = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;
const isText = (s: unknown): s is string => typeof s === 'string' && s.length > 0 && s.length < 7000;

function isWireNote(value: unknown): value is WireNote {
  const v = value as Partial<Record<string, unknown>> | null;
  if (typeof v !== 'object' || v === null || !isId(v.a)) return false;
  if (v.k === 'rev') return true;
  if (v.k === 'seat') return (v.side === 'client' || v.side === 'team') && (v.peer === null || isText(v.peer));
  if (v.k === 'sig')
    return (
      isText(v.to) &&
      isText(v.from) &&
      isText(v.id) &&
      isText(v.d) &&
      Number.isSafeInteger(v.i) &&
      isId(v.n) &&
      (v.i as number) < (v.n as number)
    );
  return false;
}

export type CallsBus = LiveSource<CallNote> & {
  /** Tells the other side's page a signal, on whichever instance it is connected (fires on commit). */
  sendSignal(db: Kysely<Database>, note: Extract<CallNote, { kind: 'signal' }>): Promise<void>;
  /** Tells both sides that a place was taken or left; call inside the transaction that changed it. */
  publishSeat(trx: Db, note: Extract<CallNote, { kind: 'seat' }>): Promise<void>;
  /** Tells a guest's page that her link was revoked; call inside the transaction that revoked it. */
  publishRevoked(trx: Db, note: Extract<CallNote, { kind: 'revoked' }>): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

export function createCallsBus(handle: DbHandle, onError: (err: Error) => void = () => {}): CallsBus {
  const source = createNotifySource(handle, { channel: CALLS_CHANNEL, name: 'calls', isNote: isWireNote, onError });
  const listeners = new Set<(note: CallNote) => void>();
  const pieces = new Map<string, { parts: string[]; got: number; at: number }>();
  let unsubscribe: (() => void) | null = null;

  const tell = (note: CallNote) => {
    for (const l of listeners) l(note);
  };
  const receive = (w: WireNote) => {
    if (w.k === 'rev') return tell({ kind: 'revoked', appointmentId: w.a });
    if (w.k === 'seat') return tell({ kind: 'seat', appointmentId: w.a, side: w.side, peerId: w.peer });
    const now = Date.now();
    let entry = pieces.get(w.id);
    if (!entry) {
      for (const [id, e] of pieces) if (now - e.at > PIECES_KEPT_MS) pieces.delete(id);
      entry = { parts: new Array<string>(w.n), got: 0, at: now };
      pieces.set(w.id, entry);
    }
    if (entry.parts.length !== w.n || entry.parts[w.i] !== undefined) return;
    entry.parts[w.i] = w.d;
    entry.got += 1;
    if (entry.got < w.n) return;
    pieces.delete(w.id);
    let signal: CallSignal;
    try {
      signal = JSON.parse(Buffer.concat(entry.parts.map((p) => Buffer.from(p, 'base64'))).toString('utf8')) as CallSignal;
    } catch (err) {
      onError(err as Error);
      return;
    }
    tell({ kind: 'signal', appointmentId: w.a, toPeer: w.to, fromPeer: w.from, signal });
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      unsubscribe ??= source.subscribe(receive);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
    async sendSignal(db, note) {
      const bytes = Buffer.from(JSON.stringify(note.signal), 'utf8');
      const n = Math.max(1, Math.ceil(bytes.length / PIECE_BYTES));
      const id = randomUUID();
      const send = async (trx: Db) => {
        for (let i = 0; i < n; i++) {
          const d = bytes.subarray(i * PIECE_BYTES, (i + 1) * PIECE_BYTES).toString('base64');
          await source.publish(trx, { k: 'sig', a: note.appointmentId, to: note.toPeer, from: note.fromPeer, id, i, n, d });
        }
      };
      // One piece needs no transaction; several go in one, so they arrive together and in order.
      if (n === 1) await send(db);
      else await db.transaction().execute(send);
    },
    async publishSeat(trx, note) {
      await source.publish(trx, { k: 'seat', a: note.appointmentId, side: note.side, peer: note.peerId });
    },
    async publishRevoked(trx, note) {
      await source.publish(trx, { k: 'rev', a: note.appointmentId });
    },
    start: () => source.start(),
    stop: async () => {
      listeners.clear();
      unsubscribe = null;
      await source.stop();
    },
  };
}

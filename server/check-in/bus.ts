import { sql } from 'kysely';
import type { Db, DbHandle } from '../db/index.js';
import type { LiveStream } from '../realtime/live-channel.js';
import { createNotifySource, type NotifySource } from '../realtime/notify-source.js';

/**
 * The follow-up loop's live events, a sibling of the feed bus on its own
 * NOTIFY channel: every instance LISTENs, so a check-in written on one
 * instance reaches the dietitians connected to any other. The events carry
 * ids only; subscribers read what they may see. There is no replay log: the
 * follow-up screens show current state, so a subscriber (re)loads it on
 * 'ready' (sent when its subscription starts and after a reconnect) and on
 * every event.
 */
export const FOLLOW_UP_CHANNEL = 'poshan_follow_up';

export const FOLLOW_UP_EVENT_KINDS = ['check-in.created', 'check-in.replied', 'schedule.changed', 'contact', 'care-record'] as const;
/** The parts of a client's care record that change live (goals, documents, intake, measurements, progress photos). */
export const CARE_RECORD_PARTS = ['goals', 'documents', 'intake', 'measurements', 'photos'] as const;
export type CareRecordPart = (typeof CARE_RECORD_PARTS)[number];
/**
 * `contact`: she and the practice were in touch on another channel (a session
 * marked done; messages and journal comments arrive through care-loop.ts).
 * `care-record`: a part of her record changed; `labReport` when a client's
 * own upload is a lab report, which her dietitian is told of.
 */
export type FollowUpNotification = {
  kind: (typeof FOLLOW_UP_EVENT_KINDS)[number];
  clientId: number;
  checkInId?: number;
  part?: CareRecordPart;
  labReport?: boolean;
};

/**
 * What the care-loop channel carries: the follow-up bus's own notes, and
 * activity elsewhere that the console's counts follow (server/check-in/care-loop.ts).
 */
export type CareLoopNote = FollowUpNotification | { kind: 'activity'; what: 'messages' | 'meals' | 'claims' };

export type FollowUpBus = NotifySource<FollowUpNotification>;

function isNotification(value: unknown): value is FollowUpNotification {
  const v = value as FollowUpNotification;
  return (
    typeof v === 'object' &&
    v !== null &&
    (FOLLOW_UP_EVENT_KINDS as readonly string[]).includes(v.kind) &&
    Number.isSafeInteger(v.clientId) &&
    (v.checkInId === undefined || Number.isSafeInteger(v.checkInId)) &&
    (v.part === undefined || (CARE_RECORD_PARTS as readonly string[]).includes(v.part)) &&
    (v.labReport === undefined || typeof v.labReport === 'boolean')
  );
}

export function createFollowUpBus(handle: DbHandle, onError: (err: Error) => void = () => {}): FollowUpBus {
  return createNotifySource(handle, { channel: FOLLOW_UP_CHANNEL, name: 'follow-up', isNote: isNotification, onError });
}

/** NOTIFYs every instance of a follow-up change, for a domain without the bus in its deps; inside the change's transaction. */
export async function notifyFollowUp(trx: Db, note: FollowUpNotification): Promise<void> {
  await sql`select pg_notify(${FOLLOW_UP_CHANNEL}, ${JSON.stringify(note)})`.execute(trx);
}

/**
 * A follow-up stream (live-channel.ts): 'ready' first, then this viewer's
 * view of each event (null: not theirs). Not resumable: each event means
 * "reload", so a subscriber that falls behind keeps only the latest.
 */
export function followUpStream<V, E extends { kind: string }>(
  name: string,
  view: (viewer: V, event: CareLoopNote) => E | null,
): LiveStream<V, CareLoopNote, E | { kind: 'ready' }> {
  return { name, ready: { kind: 'ready' }, view };
}

import type { DbHandle } from '../db/index.js';
import type { LiveStream } from './live-channel.js';
import { createNotifySource, type NotifySource } from './notify-source.js';

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

export const FOLLOW_UP_EVENT_KINDS = ['check-in.created', 'check-in.replied', 'schedule.changed'] as const;
export type FollowUpNotification = {
  kind: (typeof FOLLOW_UP_EVENT_KINDS)[number];
  clientId: number;
  checkInId?: number;
};

export type FollowUpBus = NotifySource<FollowUpNotification>;

function isNotification(value: unknown): value is FollowUpNotification {
  const v = value as FollowUpNotification;
  return (
    typeof v === 'object' &&
    v !== null &&
    (FOLLOW_UP_EVENT_KINDS as readonly string[]).includes(v.kind) &&
    Number.isSafeInteger(v.clientId) &&
    (v.checkInId === undefined || Number.isSafeInteger(v.checkInId))
  );
}

export function createFollowUpBus(handle: DbHandle, onError: (err: Error) => void = () => {}): FollowUpBus {
  return createNotifySource(handle, { channel: FOLLOW_UP_CHANNEL, name: 'follow-up', isNote: isNotification, onError });
}

/**
 * A follow-up stream (live-channel.ts): 'ready' first, then this viewer's
 * view of each event (null: not theirs). Not resumable: each event means
 * "reload", so a subscriber that falls behind keeps only the latest.
 */
export function followUpStream<V, E extends { kind: string }>(
  name: string,
  view: (viewer: V, event: FollowUpNotification) => E | null,
): LiveStream<V, FollowUpNotification, E | { kind: 'ready' }> {
  return { name, ready: { kind: 'ready' }, view };
}

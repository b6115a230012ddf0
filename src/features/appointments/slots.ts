import { TRPCClientError } from '@trpc/client';
import type { SlotView } from '../../../server/appointments/schema';
import { isServiceZone, SERVICE_TIME_ZONE } from '../../../server/time';

/** The viewer's own time zone (the browser's), sent with every slots request. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || SERVICE_TIME_ZONE;
  } catch {
    return SERVICE_TIME_ZONE;
  }
}

export const isIndia = (tz: string) => isServiceZone(tz);

/** "Tue 20 Oct" for a 'YYYY-MM-DD' day (a calendar day: no time zone shift). */
export function dayLabel(day: string, opts: { weekday?: 'short' | 'long' } = {}): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: opts.weekday ?? 'short', day: 'numeric', month: 'short' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** The next free slots a 409 carried (a slot taken meanwhile), or null. */
export function nextSlotsOf(error: unknown): SlotView[] | null {
  if (!(error instanceof TRPCClientError)) return null;
  const details = (error.data as { details?: { nextSlots?: SlotView[] } | null } | undefined)?.details;
  if (!details?.nextSlots) return null;
  return details.nextSlots.map((s) => ({ ...s, start: new Date(s.start), end: new Date(s.end) }));
}

/** Slots grouped by their day in the viewer's zone, in order. */
export function byLocalDay(slots: SlotView[]): { day: string; slots: SlotView[] }[] {
  const groups = new Map<string, SlotView[]>();
  for (const s of slots) {
    const list = groups.get(s.local.date) ?? [];
    list.push(s);
    groups.set(s.local.date, list);
  }
  return [...groups.entries()].map(([day, list]) => ({ day, slots: list }));
}

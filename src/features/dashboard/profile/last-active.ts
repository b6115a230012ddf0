import { relativeTime } from '../../../lib/relative-time';

/**
 * A device's last activity in the devices list, in the spec's relative style (the feed's thresholds:
 * 1 minute, 60 minutes, 24 hours): 'Active just now', 'Active 5m ago', 'Active 3h ago', then
 * 'Active on 21 Nov 2026'. The device making this request is in use now, whatever its last renewal says.
 */
export function lastActiveLabel(lastActiveAt: Date | string, current: boolean, now: Date = new Date()): string {
  if (current) return 'Active now';
  const short = relativeTime(lastActiveAt, now);
  if (short === 'just now') return 'Active just now';
  if (/^\d+[mh]$/.test(short)) return `Active ${short} ago`;
  return `Active on ${short}`;
}

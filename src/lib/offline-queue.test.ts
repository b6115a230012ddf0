import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editQueued, enqueue, type QueuedItem, registerSender } from './offline-queue';
import { keyForBody } from './request-key';

/** localStorage as the browser keeps it, for the node test environment. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

type Meal = { clientEntryId: string; description: string };
const USER = 41;
const stored = () => JSON.parse(globalThis.localStorage.getItem(`poshan:queue:${USER}`) ?? '[]') as QueuedItem<Meal>[];

let offline: () => void;
beforeEach(() => {
  Object.assign(globalThis, { localStorage: new MemoryStorage() });
  // Without a connection: every send fails as an outage, so items stay queued.
  offline = registerSender<Meal>('meal', () => Promise.reject(new TypeError('Failed to fetch')));
});
afterEach(() => offline());

describe('a queued item changed before it is sent', () => {
  it('goes under a new key, put into its payload, in the same place in the queue', async () => {
    enqueue<Meal>(USER, 'meal', 'key-1', { clientEntryId: 'key-1', description: 'Poha' });
    enqueue<Meal>(USER, 'meal', 'key-2', { clientEntryId: 'key-2', description: 'Dal' });
    // Both tried at once and kept: waiting for the connection.
    await vi.waitFor(() => expect(stored().map((i) => i.state)).toEqual(['waiting', 'waiting']));
    const fresh = editQueued<Meal>(USER, 'key-1', { clientEntryId: 'key-1', description: 'Poha with peanuts' }, (p, key) => ({
      ...p,
      clientEntryId: key,
    }));
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh).not.toBe('key-1');
    expect(stored().map((i) => [i.key, i.payload])).toEqual([
      [fresh, { clientEntryId: fresh, description: 'Poha with peanuts' }],
      ['key-2', { clientEntryId: 'key-2', description: 'Dal' }],
    ]);
  });

  it('is not changed when nothing with that key waits here', () => {
    expect(editQueued<Meal>(USER, 'gone', { clientEntryId: 'gone', description: 'x' }, (p) => p)).toBeNull();
    expect(stored()).toEqual([]);
  });
});

describe('keyForBody', () => {
  it('keeps the key while the body is the same and makes a new one once it changes', () => {
    const first = keyForBody(null, { weight: 72.4, notes: '' });
    expect(keyForBody(first, { weight: 72.4, notes: '' })).toBe(first);
    const changed = keyForBody(first, { weight: 72.6, notes: '' });
    expect(changed.key).not.toBe(first.key);
  });
});

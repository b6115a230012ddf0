import type { SessionUser } from './session-user.js';

/**
 * A short-lived, bounded, in-process cache of token → live session, so a
 * request (or a call over a WebSocket) costs a map lookup instead of a
 * database round-trip. It is only safe because every change to a session
 * evicts it on every instance at once (NOTIFY, see live-sessions.ts); the TTL
 * bounds staleness if a notification is ever lost, and the session's own
 * expiry is checked on every hit.
 */
export const SESSION_CACHE_TTL_MS = 5_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

type Entry = { user: SessionUser | null; until: number };

export type SessionCache = ReturnType<typeof createSessionCache>;

export function createSessionCache(
  load: (tokenHash: string) => Promise<SessionUser | null>,
  opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
) {
  const ttlMs = opts.ttlMs ?? SESSION_CACHE_TTL_MS;
  const maxEntries = opts.maxEntries ?? SESSION_CACHE_MAX_ENTRIES;
  const now = opts.now ?? Date.now;
  /** Insertion order is recency order: a hit moves its entry to the end, the oldest is evicted first. */
  const entries = new Map<string, Entry>();
  const hashesOfUser = new Map<number, Set<string>>();
  /** One database read per token at a time, however many calls arrive together. */
  const loading = new Map<string, Promise<SessionUser | null>>();
  /** Bumped by every eviction: a read that started before it must not be cached. */
  let generation = 0;
  /**
   * Users whose sessions this process is changing in a transaction not yet
   * known to be committed: a read now still sees the old rows, so nothing of
   * theirs is cached until the change is announced (or, if it rolled back,
   * until the TTL has passed).
   */
  const unsettled = new Map<number, number>();
  const isUnsettled = (userId: number) => {
    const until = unsettled.get(userId);
    if (until === undefined) return false;
    if (until > now()) return true;
    unsettled.delete(userId);
    return false;
  };

  const unindex = (hash: string, entry: Entry) => {
    if (!entry.user) return;
    const hashes = hashesOfUser.get(entry.user.id);
    hashes?.delete(hash);
    if (hashes?.size === 0) hashesOfUser.delete(entry.user.id);
  };

  const remove = (hash: string) => {
    const entry = entries.get(hash);
    if (!entry) return;
    entries.delete(hash);
    unindex(hash, entry);
  };

  const store = (hash: string, user: SessionUser | null) => {
    remove(hash);
    if (user && isUnsettled(user.id)) return;
    entries.set(hash, { user, until: now() + ttlMs });
    if (user) {
      const hashes = hashesOfUser.get(user.id) ?? new Set<string>();
      hashesOfUser.set(user.id, hashes);
      hashes.add(hash);
    }
    while (entries.size > maxEntries) remove(entries.keys().next().value as string);
  };

  const fresh = (user: SessionUser | null) => (user && user.expiresAt.getTime() <= now() ? null : user);

  return {
    /** The live session for a token hash; a database error propagates (an outage is not a sign-out). */
    async get(hash: string): Promise<SessionUser | null> {
      const hit = entries.get(hash);
      if (hit && hit.until > now()) {
        entries.delete(hash);
        entries.set(hash, hit);
        return fresh(hit.user);
      }
      if (hit) remove(hash);
      let pending = loading.get(hash);
      if (!pending) {
        const startedAt = generation;
        pending = load(hash)
          .then((user) => {
            if (generation === startedAt) store(hash, user);
            return user;
          })
          .finally(() => loading.delete(hash));
        loading.set(hash, pending);
      }
      return fresh(await pending);
    },
    /** This user's sessions changed (revoked, rotated, deactivated) and the change is committed: forget them. */
    forgetUser(userId: number) {
      unsettled.delete(userId);
      evict(userId);
    },
    /**
     * This process is changing the user's sessions in a transaction that has
     * not committed yet: forget them, and cache none of theirs until
     * forgetUser announces the commit.
     */
    holdUser(userId: number) {
      unsettled.set(userId, now() + ttlMs);
      evict(userId);
    },
    /** Notifications may have been missed (the LISTEN connection dropped): forget everything. */
    forgetAll() {
      generation += 1;
      entries.clear();
      hashesOfUser.clear();
      loading.clear();
    },
    get size() {
      return entries.size;
    },
  };

  function evict(userId: number) {
    generation += 1;
    for (const hash of hashesOfUser.get(userId) ?? []) entries.delete(hash);
    hashesOfUser.delete(userId);
    loading.clear();
  }
}

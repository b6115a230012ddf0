/**
 * The like toggle's statement exactly as the app sends it (server/feed/repo.ts
 * toggleLikeStatement), for the bench's hand-written servers: the reference
 * (reference-server.ts) and the bare-statements layer (layers-server.ts) run
 * this text, so the app and they can never drift apart.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { toggleLikeStatement } from '../../server/feed/repo.js';
import { FEED_CHANNEL, FEED_WRITE_LOCK } from '../../server/feed/event-log.js';

/** Kysely that only compiles (no connection): to read the statement's text and where its values go. */
const compiler = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Values no real request has, to find each one's places among the parameters. */
const SLOT = { post: -910_001, user: -920_002, at: -930_003 } as const;
const compiled = toggleLikeStatement(SLOT.post, SLOT.user, SLOT.at).compile(compiler);

export type ToggleRow = { found: boolean; liked: boolean | null; like_count: number | null; event_id: number | string | null };

/**
 * The toggle as a named statement: `values(post, user, at)` gives its
 * parameters. `own` logs and announces on a table, channel and lock of the
 * caller's instead (the reference's, so the app never hears its events).
 */
export function toggleStatement(name: string, own?: { eventsTable: string; channel: string; lock: number }) {
  const text = own ? compiled.sql.replace(/\binsert into feed_events\b/, `insert into ${own.eventsTable}`) : compiled.sql;
  if (own && text === compiled.sql) throw new Error('the toggle statement no longer inserts into feed_events: update the bench');
  const fixed = compiled.parameters.map((p) => {
    if (own && p === FEED_CHANNEL) return own.channel;
    if (own && p === FEED_WRITE_LOCK) return own.lock;
    return p;
  });
  return {
    name,
    text,
    values(postId: number, userId: number, at: number): unknown[] {
      return fixed.map((p) => (p === SLOT.post ? postId : p === SLOT.user ? userId : p === SLOT.at ? at : p));
    },
  };
}

import { sql, type Kysely } from 'kysely';
import { issueSession } from '../../server/auth/sessions-repo.js';
import { ROLE } from '../../server/auth/roles.js';
import type { Database } from '../../server/db/index.js';

/** `count` client accounts without passwords (`<prefix>-<i>@poshan.bench`), in one insert; their ids in order. */
export async function insertBenchClients(db: Kysely<Database>, count: number, prefix: string, firstName: string): Promise<number[]> {
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: count }, (_, i) => ({
        email: `${prefix}-${i}@poshan.bench`,
        first_name: firstName,
        last_name: `Client ${i}`,
        role: ROLE.client,
        password_hash: null,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export type BenchData = {
  /** One bearer token per client account. */
  tokens: string[];
  clientIds: number[];
  postIds: number[];
};

/**
 * A feed like a busy clinic's: `posts` posts, the first `likedClients` clients
 * liking every one (so each post lists 100 liker ids), and `clients` client
 * accounts with a live session each. Written straight to the tables (no scrypt:
 * the accounts never sign in with a password).
 */
export async function seedBench(db: Kysely<Database>, opts: { clients: number; posts: number; likedClients: number }): Promise<BenchData> {
  const admin = await db
    .insertInto('users')
    .values({ email: 'bench-admin@poshan.bench', first_name: 'Bench', last_name: 'Dietitian', role: ROLE.admin, password_hash: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const clientIds = await insertBenchClients(db, opts.clients, 'bench-client', 'Bench');
  const tokens: string[] = [];
  for (const id of clientIds) tokens.push((await issueSession(db, id)).token);
  const posts = await db
    .insertInto('feed_posts')
    .values(
      Array.from({ length: opts.posts }, (_, i) => ({
        author_id: admin.id,
        description: `Bench post ${i}: drink water before meals, eat dal with rice, and walk for twenty minutes after dinner.`,
        created_at: sql<Date>`now() - make_interval(mins => ${opts.posts - i})`,
      })),
    )
    .returning('id')
    .execute();
  const postIds = posts.map((p) => p.id);
  const likers = clientIds.slice(0, opts.likedClients);
  if (likers.length > 0) {
    await db
      .insertInto('feed_likes')
      .values(postIds.flatMap((post_id) => likers.map((user_id) => ({ post_id, user_id }))))
      .execute();
  }
  return { tokens, clientIds, postIds };
}

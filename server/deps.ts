import type { Kysely } from 'kysely';
import type { Database, DbHandle } from './db/index.js';
import type { Config } from './env.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mail/mailer.js';
import type { FeedBus } from './realtime/feed-bus.js';

/**
 * Everything a request may need, built once at start (server/main.ts) or per
 * test (tests/helpers). Procedures reach services through ctx.deps.
 */
export interface AppDeps {
  config: Config;
  /** The resolved secret: APP_SECRET, or the one kept in DATA_DIR for the embedded database. */
  secret: string;
  db: Kysely<Database>;
  dbHandle: DbHandle;
  logger: Logger;
  mailer: Mailer;
  feedBus: FeedBus;
}

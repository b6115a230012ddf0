import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

export type { Database } from './schema.js';
export type { DbHandle } from './connect.js';
/** A repository takes either the root db or a transaction. */
export type Db = Kysely<Database> | Transaction<Database>;
export type Tx = Transaction<Database>;

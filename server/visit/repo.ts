import type { Db } from '../db/index.js';

export function insertVisit(db: Db, day: string, visitorHash: string) {
  return db.insertInto('visits').values({ day, visitor_hash: visitorHash }).execute();
}

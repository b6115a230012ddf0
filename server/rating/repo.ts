import type { Db } from '../db/index.js';

/** Inserts the user's one rating; undefined when they already have one (the unique key decides, so races are safe). */
export function insertRatingOnce(db: Db, rating: { userId: number; halfStars: number; comment: string }) {
  return db
    .insertInto('ratings')
    .values({ user_id: rating.userId, half_stars: rating.halfStars, comment: rating.comment })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning(['id', 'user_id', 'half_stars', 'comment'])
    .executeTakeFirst();
}

export async function hasRated(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('ratings').select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

import type { Db } from '../db/index.js';
import { type PageRequest, pagedList } from '../db/paging.js';

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

const withAuthor = (db: Db) => db.selectFrom('ratings as r').innerJoin('users as u', 'u.id', 'r.user_id');

/** A page of ratings with their authors, newest first; `published` keeps only those on (or off) the home page. */
export function pageRatingsWithAuthors(db: Db, input: PageRequest & { published?: boolean }) {
  const filtered = input.published === undefined ? withAuthor(db) : withAuthor(db).where('r.is_published', '=', input.published);
  return pagedList(input, filtered, (q) =>
    q
      .select([
        'r.id',
        'r.half_stars',
        'r.comment',
        'r.is_published',
        'r.created_at',
        'u.id as user_id',
        'u.first_name',
        'u.last_name',
        'u.is_active',
      ])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc'),
  );
}

/** One rating and its author's name, locked for a change. */
export function lockRatingWithAuthor(db: Db, id: number) {
  return withAuthor(db)
    .select(['r.id', 'r.comment', 'r.is_published', 'u.first_name', 'u.last_name'])
    .where('r.id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export function setRatingPublished(db: Db, id: number, published: boolean) {
  return db.updateTable('ratings').set({ is_published: published }).where('id', '=', id).execute();
}

/** The newest published ratings with the author's first name. */
export function newestPublishedRatings(db: Db, limit: number) {
  return withAuthor(db)
    .select(['r.id', 'r.half_stars', 'r.comment', 'r.created_at', 'u.first_name'])
    .where('r.is_published', '=', true)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
}

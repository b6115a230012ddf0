import { followUpQueue } from '../../check-in/follow-ups.js';
import { FOLLOW_UP_VIEWS } from '../../check-in/schema.js';
import type { SessionUser } from '../../auth/session.js';
import type { Db } from '../../db/index.js';
import { totalUnread } from '../../messages/repo.js';
import { addDays, DAY_MS } from '../../time.js';
import { todayUtc } from '../../validation.js';
import * as repo from './repo.js';
import { LAB_REPORTS_NEW_DAYS, type Overview, VISIT_DAYS } from './schema.js';

const count = (row: { n: unknown } | undefined) => Number(row?.n ?? 0);

/**
 * Each figure is one indexed aggregate, but the follow-ups: those are counted
 * from the follow-up queue itself (its schedules are computed, not stored), so
 * the Overview and the Follow-ups page always agree (clients with no meals
 * logged too). Unread messages are this dietitian's, as her inbox counts
 * them. Visits are grouped per day along visits_day_visitor_idx.
 */
export async function getOverview(db: Db, actor: Pick<SessionUser, 'id'>, now = new Date()): Promise<Overview> {
  const today = todayUtc(now);
  const firstDay = addDays(today, -(VISIT_DAYS - 1));
  const [queue, unread, claims, labReports, bookings, support, subscriptions, clients, rating, visits] = await Promise.all([
    followUpQueue(db, now),
    totalUnread(db, actor.id, false),
    repo.countClaimsToConfirm(db),
    repo.newLabReports(db, new Date(now.getTime() - LAB_REPORTS_NEW_DAYS * DAY_MS)),
    repo.countNewBookings(db),
    repo.countOpenSupportRequests(db),
    repo.countActiveSubscriptions(db, today),
    repo.countActiveClients(db),
    repo.ratingAverage(db),
    repo.visitsPerDay(db, firstDay, today),
  ]);
  const byDay = new Map(visits.map((v) => [v.day, { visits: Number(v.visits), visitors: Number(v.visitors) }]));
  const avgHalf = rating?.avg_half == null ? null : Number(rating.avg_half);
  return {
    checkInsAwaitingReply: queue.rows.filter(FOLLOW_UP_VIEWS['awaiting-reply'].includes).length,
    overdueFollowUps: queue.rows.filter(FOLLOW_UP_VIEWS.overdue.includes).length,
    unreadMessages: unread.totalUnread,
    claimsToConfirm: count(claims),
    newLabReports: { count: count(labReports), newestClientId: labReports?.newest_client_id ?? null },
    clientsWithoutMeals: queue.rows.filter(FOLLOW_UP_VIEWS['no-meals'].includes).length,
    newBookings: count(bookings),
    openSupportRequests: count(support),
    activeSubscriptions: count(subscriptions),
    activeClients: count(clients),
    // avg() of smallint is numeric (a string from pg): stars to one decimal.
    rating: { average: avgHalf === null ? null : Math.round(avgHalf * 5) / 10, count: count(rating) },
    visits: Array.from({ length: VISIT_DAYS }, (_, i) => {
      const day = addDays(today, -(VISIT_DAYS - 1 - i));
      return { day, ...(byDay.get(day) ?? { visits: 0, visitors: 0 }) };
    }),
  };
}

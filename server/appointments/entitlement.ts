import { planMonths } from '../check-in/service.js';
import type { Db } from '../db/index.js';
import { forbidden } from '../errors.js';
import * as repo from './repo.js';
import { type EntitlementView, FOLLOW_UP_HORIZON_DAYS, periodStartOf } from './schema.js';
import { addDays, isoWeekday, mondayOf, serviceDay, serviceInstant } from '../time.js';

/* Entitlements. */

/** The India-time month holding `day`: [first day, first day of the next). */
const monthOf = (day: string) => {
  const first = `${day.slice(0, 7)}-01`;
  const d = new Date(`${first}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return { first, next: d.toISOString().slice(0, 10) };
};

/** Mondays of the India-time month: a weekly plan's follow-ups "this month" are its weeks that begin in it. */
const mondaysOf = (month: { first: string; next: string }) => {
  const out: string[] = [];
  for (let d = month.first; d < month.next; d = addDays(d, 1)) if (isoWeekday(d) === 1) out.push(d);
  return out;
};

export const FOLLOW_UPS_PER_MONTH_SHORT_PLAN = 2;

/**
 * The FAQ's entitlement: one-month plans include two follow-ups a calendar month, longer plans one a week
 * (India-time Monday to Sunday). "Left this month" counts what is still bookable in the month of `now`.
 */
export async function entitlementOf(db: Db, clientId: number, now: Date, exceptId?: number): Promise<EntitlementView> {
  const today = serviceDay(now);
  const sub = await repo.subscriptionOn(db, clientId, today);
  const none = { period: null, perPeriod: 0, periodStart: null, periodEnd: null, leftThisPeriod: 0, fullPeriods: [] };
  if (!sub) return { rule: 'none', perMonth: 0, leftThisMonth: 0, ...none, planName: null, planEnds: null };
  const month = monthOf(today);
  const period = planMonths(sub) <= 1 ? 'month' : 'week';
  const perPeriod = period === 'month' ? FOLLOW_UPS_PER_MONTH_SHORT_PLAN : 1;
  // Every period a follow-up can be booked in now: from this month's first (or this week's Monday) past the horizon.
  const from = [month.first, mondayOf(today)].sort()[0]!;
  const until = addDays(today, FOLLOW_UP_HORIZON_DAYS + 32);
  const starts = (await repo.followUpStarts(db, clientId, serviceInstant(from, 0), serviceInstant(until, 0), exceptId)).map((r) =>
    serviceDay(r.starts_at),
  );
  const used = new Map<string, number>();
  for (const d of starts) used.set(periodStartOf(d, period), (used.get(periodStartOf(d, period)) ?? 0) + 1);
  const current = periodStartOf(today, period);
  const horizonEnd = addDays(today, FOLLOW_UP_HORIZON_DAYS + 1);
  const fullPeriods = [...used.entries()]
    .filter(([first, n]) => first >= current && first <= horizonEnd && n >= perPeriod)
    .map(([first]) => first)
    .sort();
  const common = {
    period,
    perPeriod,
    periodStart: current,
    periodEnd: period === 'month' ? addDays(month.next, -1) : addDays(current, 6),
    leftThisPeriod: Math.max(0, perPeriod - (used.get(current) ?? 0)),
    fullPeriods,
    planName: sub.plan_name,
    planEnds: sub.end_date,
  } as const;
  if (period === 'month') return { rule: 'monthly', perMonth: perPeriod, leftThisMonth: common.leftThisPeriod, ...common };
  const mondays = mondaysOf(month);
  const open = mondays.filter((m) => m >= current && m <= sub.end_date && !used.has(m));
  return { rule: 'weekly', perMonth: mondays.length, leftThisMonth: open.length, ...common };
}

/** Refuses a follow-up at `start` the client's plan does not include (403 with the reason). */
export async function checkEntitlement(db: Db, clientId: number, start: Date, exceptId?: number) {
  const day = serviceDay(start);
  const sub = await repo.subscriptionOn(db, clientId, day);
  if (!sub) throw forbidden('Your plan does not cover that day. Follow-ups are part of a running plan; please renew to book one.');
  if (planMonths(sub) <= 1) {
    const month = monthOf(day);
    const used = await repo.followUpStarts(db, clientId, serviceInstant(month.first, 0), serviceInstant(month.next, 0), exceptId);
    if (used.length >= FOLLOW_UPS_PER_MONTH_SHORT_PLAN)
      throw forbidden(
        `Your plan includes ${FOLLOW_UPS_PER_MONTH_SHORT_PLAN} follow-ups a month, and that month's are booked. Move one of them, or pick a day next month.`,
      );
    return;
  }
  const week = mondayOf(day);
  const used = await repo.followUpStarts(db, clientId, serviceInstant(week, 0), serviceInstant(addDays(week, 7), 0), exceptId);
  if (used.length >= 1)
    throw forbidden('Your plan includes one follow-up a week, and that week’s is booked. Move it, or pick another week.');
}

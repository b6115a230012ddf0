import { recordAudit } from '../audit/record.js';
import { clientToActFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { dayIn, shiftDay } from '../journal/schema.js';
import { addTotals, nutrientsIn, shareOf, sumNutrients, type Total } from './compute.js';
import * as repo from './days-repo.js';
import { storedNutrients } from './search.js';
import { clientSeesNumbers } from './targets.js';
import { NUTRITION_DAYS_MAX, type NutritionDay, type NutritionDays, type NutritionDaysInput } from './days-schema.js';
import { NUTRIENT_KEYS, type Nutrients } from './nutrients.js';

/**
 * What a client's days add up to: the foods of each day's meals summed (compute.ts), beside the
 * client's targets. A dietitian reads any client's; a client their own, and only while their
 * dietitian lets them see numbers.
 */

const NO_TARGETS = { targets: {} as Nutrients, showNumbers: true };

/** The targets and the numbers switch of one client (defaults when none were set). */
export async function targetsFor(db: Db, clientId: number) {
  return (await repo.targetsOf(db, [clientId])).get(clientId) ?? NO_TARGETS;
}

/** Whether this reader sees a client's nutrient numbers: a dietitian always; the client as the switch says. */
export async function numbersShownTo(db: Db, actor: SessionUser, clientId: number): Promise<boolean> {
  return actor.role === ROLE.admin || clientSeesNumbers(db, clientId);
}

/** Each targeted nutrient's share of its target. */
export function sharesOf(values: Nutrients, targets: Nutrients): Nutrients {
  const shares: Nutrients = {};
  for (const key of NUTRIENT_KEYS) {
    const share = shareOf(values[key], targets[key]);
    if (share !== null) shares[key] = share;
  }
  return shares;
}

type Eaten = Awaited<ReturnType<typeof repo.eatenBetween>>;

/** One client's days of [from, to], every day present, oldest first. */
function daysOf(eaten: Eaten, clientId: number, from: string, to: string, targets: Nutrients): NutritionDay[] {
  const days: NutritionDay[] = [];
  for (let date = from; date <= to; date = shiftDay(date, 1)) {
    const meals = eaten.meals.filter((m) => m.client_id === clientId && m.eaten_on === date);
    const items = eaten.items.filter((i) => i.client_id === clientId && i.eaten_on === date);
    // A day is the sum of its meals, each the sum of its foods (the same path a meal's own total takes).
    const totals = addTotals(
      meals.map((m) =>
        sumNutrients(items.filter((i) => i.entry_id === m.id).map((i) => nutrientsIn(storedNutrients(i.per_100g), i.grams))),
      ),
    );
    days.push({
      date,
      meals: meals.length,
      mealsWithFoods: new Set(items.map((i) => i.entry_id)).size,
      totals,
      shares: sharesOf(totals.values, targets),
    });
  }
  return days;
}

/** `GET /api/nutrition/days`: per day of [from, to] (the last 7 by default, at most 92), totals, targets and shares. */
export async function nutritionDays(db: Db, actor: SessionUser, input: NutritionDaysInput, now: Date): Promise<NutritionDays> {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  const today = dayIn(now);
  for (const field of ['from', 'to'] as const) {
    const day = input[field];
    if (day !== undefined && (day < '1900-01-01' || day > shiftDay(today, 366))) {
      const message = `${field} must be a day between 1900 and a year from today`;
      throw badRequest(message, { [field]: [message] });
    }
  }
  const to = input.to ?? (input.from ? shiftDay(input.from, 6) : today);
  const from = input.from ?? shiftDay(to, -6);
  if (shiftDay(from, NUTRITION_DAYS_MAX - 1) < to) {
    const message = `Ask for at most ${NUTRITION_DAYS_MAX} days at a time.`;
    throw badRequest(message, { from: [message] });
  }
  const { targets, showNumbers } = await targetsFor(db, clientId);
  if (actor.role !== ROLE.admin && !showNumbers) return { clientId, from, to, targets: {}, showNumbers, days: [] };
  if (actor.role === ROLE.admin) {
    await recordAudit(db, actor, {
      action: 'journal.viewed',
      entity: 'user',
      entityId: clientId,
      summary: `Viewed the nutrient totals of client #${clientId}`,
      details: { from, to },
    });
  }
  const eaten = await repo.eatenBetween(db, [clientId], from, to);
  return { clientId, from, to, targets, showNumbers, days: daysOf(eaten, clientId, from, to, targets) };
}

/** A week's intake against targets, for the follow-up queue: the shares over the days that list foods. */
export type WeekIntake = { daysWithFoods: number; energyShare: number | null; proteinShare: number | null };

/**
 * Per client, the last 7 days (today included): energy and protein eaten on the days with foods,
 * over the target times those days (a day with nothing logged is not known, not zero).
 */
export async function weekIntakeOf(db: Db, clientIds: readonly number[], now: Date): Promise<Map<number, WeekIntake>> {
  const to = dayIn(now);
  const from = shiftDay(to, -6);
  const [eaten, targets] = await Promise.all([repo.eatenBetween(db, clientIds, from, to), repo.targetsOf(db, clientIds)]);
  const out = new Map<number, WeekIntake>();
  for (const clientId of clientIds) {
    const target = targets.get(clientId)?.targets ?? {};
    const days = daysOf(eaten, clientId, from, to, target).filter((d) => d.mealsWithFoods > 0);
    const week: Total = addTotals(days.map((d) => d.totals));
    const share = (key: 'energyKcal' | 'proteinG') => (days.length ? shareOf(week.values[key], (target[key] ?? 0) * days.length) : null);
    out.set(clientId, { daysWithFoods: days.length, energyShare: share('energyKcal'), proteinShare: share('proteinG') });
  }
  return out;
}

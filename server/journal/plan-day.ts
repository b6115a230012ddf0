import { composedDietPlanSchema, type PlanDay, portionText } from '../diet-plan/schema.js';
import type { Db } from '../db/index.js';
import { daysBetween } from '../time.js';
import { weekdayOf } from './schema.js';
import * as repo from './repo.js';
import type { PlanMeals } from './schema.js';

/**
 * Which of a plan's days a date falls on: a day labelled with its weekday
 * ('Monday', 'Mon, Wed, Fri') when there is one, else the days in turn from
 * the plan's first date (Day 1, Day 2, ... again from Day 1).
 */
export function planDayFor(days: readonly PlanDay[], from: string, date: string): PlanDay | null {
  if (days.length === 0) return null;
  const weekday = weekdayOf(date);
  const named = days.find((d) => new RegExp(`\\b(${weekday}|${weekday.slice(0, 3)})\\b`, 'i').test(d.label));
  if (named) return named;
  const index = daysBetween(from, date) % days.length;
  return days[index] ?? null;
}

/** The meals of the client's diet plan for `date`, when a plan covers it. */
export async function planMealsOn(db: Db, clientId: number, date: string): Promise<PlanMeals | null> {
  const plan = await repo.planCovering(db, clientId, date);
  if (!plan) return null;
  const composed = plan.content
    ? composedDietPlanSchema.safeParse(typeof plan.content === 'string' ? JSON.parse(plan.content) : plan.content)
    : null;
  if (!composed?.success) return { planId: plan.id, title: plan.title, dayLabel: null, meals: null };
  const day = planDayFor(composed.data.days, plan.from_date, date);
  if (!day) return { planId: plan.id, title: plan.title, dayLabel: null, meals: null };
  return {
    planId: plan.id,
    title: plan.title,
    dayLabel: day.label,
    meals: day.meals.map((m) => ({
      time: m.time,
      name: m.name,
      items: m.items.map((i) => `${i.food}, ${portionText(i.portion)}`),
      notes: m.notes ?? null,
    })),
  };
}

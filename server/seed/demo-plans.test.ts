import { describe, expect, it } from 'vitest';
import { ashaDietPlans, rohanDietPlan } from './demo-plans.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

describe('demo diet plans', () => {
  it('never has a day’s note talk about another day of the week', () => {
    const plans = [...ashaDietPlans('2026-11-26'), rohanDietPlan('2026-11-26')];
    const misplaced: string[] = [];
    for (const plan of plans) {
      for (const day of plan.days) {
        for (const meal of day.meals) {
          for (const other of WEEKDAYS.filter((w) => w !== day.label)) {
            if (meal.notes?.includes(other)) misplaced.push(`${plan.title}, ${day.label} ${meal.name}: "${meal.notes}"`);
          }
        }
      }
    }
    expect(misplaced).toEqual([]);
  });
});

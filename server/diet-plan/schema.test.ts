import { describe, expect, it } from 'vitest';
import { composedDietPlanSchema } from './schema.js';

const plan = (portion: Record<string, unknown>, dates = { from: '2026-12-01', to: '2026-12-01' }) => ({
  title: 'Plan',
  ...dates,
  days: [{ label: 'Monday', meals: [{ time: '08:00', name: 'Breakfast', items: [{ food: 'Poha', portion }] }] }],
});
const problems = (input: unknown) => {
  const parsed = composedDietPlanSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('composedDietPlanSchema', () => {
  it('takes a household portion without grams or millilitres', () => {
    expect(problems(plan({ quantity: 1, unit: 'katori' }))).toEqual([]);
    expect(problems(plan({ quantity: 2, unit: 'roti', grams: 60 }))).toEqual([]);
  });

  it('reports the date range with every other problem at once, not only once they are fixed', () => {
    expect(problems(plan({ unit: 'katori' }, { from: '2026-12-07', to: '2026-12-01' }))).toEqual([
      'days.0.meals.0.items.0.portion.quantity: Quantity is required',
      'to: The end date cannot be before the start date',
    ]);
    // An unreadable date is reported as such, without a range message on top.
    expect(problems(plan({ quantity: 1, unit: 'katori' }, { from: '2026-12-07', to: 'soon' }))).toEqual([
      'to: Use a real date in the form YYYY-MM-DD',
    ]);
  });
});

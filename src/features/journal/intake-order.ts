import type { JournalAdherence } from '../../../server/journal/schema';

/**
 * Orders for the follow-up queue by what clients ate this week against their targets (the
 * journal's foods): the lowest share first, clients without foods logged or without a target last,
 * the server's order (due first) kept among equals.
 */
export const INTAKE_ORDERS = {
  due: { label: 'Due first', share: null },
  protein: { label: 'Lowest protein this week', share: 'proteinShare' },
  energy: { label: 'Lowest energy this week', share: 'energyShare' },
} as const;
export type IntakeOrder = keyof typeof INTAKE_ORDERS;
export const INTAKE_ORDER_KEYS = Object.keys(INTAKE_ORDERS) as IntakeOrder[];

export function byIntake<T extends { journal: JournalAdherence }>(rows: readonly T[], order: IntakeOrder): T[] {
  const share = INTAKE_ORDERS[order].share;
  if (share === null) return [...rows];
  const value = (row: T) => row.journal.intake?.[share] ?? Number.POSITIVE_INFINITY;
  // Array.prototype.sort is stable: equal shares keep the queue's own order.
  return [...rows].sort((a, b) => value(a) - value(b));
}

import type { Db } from '../db/index.js';
import { monthRange, serviceDay } from '../time.js';
import * as repo from './repo.js';

/* ------------------------------- console ------------------------------- */

export async function paymentsSummary(db: Db, now: Date) {
  const today = serviceDay(now);
  const month = monthRange(today);
  const { counts, money } = await repo.summaryFigures(db, today, month.start, month.end);
  const byStatus = Object.fromEntries(counts.map((c) => [c.status, Number(c.n)]));
  return {
    counts: {
      issued: byStatus.issued ?? 0,
      claimed: byStatus.claimed ?? 0,
      paid: byStatus.paid ?? 0,
      void: byStatus.void ?? 0,
      overdue: Number(money.overdue),
    },
    collectedThisMonthPaise: Number(money.collected),
    outstandingPaise: Number(money.outstanding),
    claimedWaiting: byStatus.claimed ?? 0,
  };
}

import { clientToActFor } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { daysBetween, serviceDay } from '../time.js';
import { listWeights } from '../weight/repo.js';
import * as repo from './repo.js';
import type { CreateGoalsInput, Goals, GoalsOverview } from './schema.js';
import { type CareRecordDeps, createOnce, nameOf, numberOrNull } from './shared.js';

// ---------------------------------------------------------------- goals

function toGoals(r: repo.GoalsRow): Goals {
  return {
    id: r.id,
    clientId: r.client_id,
    targetWeightKg: r.target_weight_kg,
    targetDate: r.target_date,
    waistCm: r.waist_cm,
    waterGlasses: r.water_glasses,
    steps: r.steps,
    habit: r.habit,
    setBy: nameOf(r.setter_first, r.setter_last),
    createdAt: r.created_at,
  };
}

const NO_GOAL = 'Set at least one goal: a target weight with its date, waist, daily water, steps or a habit';

export async function createGoals(deps: CareRecordDeps, actor: SessionUser, input: CreateGoalsInput, now: Date) {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  const { targetWeightKg, targetDate, waistCm, waterGlasses, steps, habit } = input;
  if ([targetWeightKg, targetDate, waistCm, waterGlasses, steps, habit].every((v) => v === null)) {
    throw badRequest(NO_GOAL, { targetWeightKg: [NO_GOAL] });
  }
  if ((targetWeightKg === null) !== (targetDate === null)) {
    const field = targetWeightKg === null ? 'targetWeightKg' : 'targetDate';
    const message = targetWeightKg === null ? 'Give the target weight for this date' : 'Give the date to reach the target weight by';
    throw badRequest(message, { [field]: [message] });
  }
  if (targetDate !== null && targetDate <= serviceDay(now)) {
    const message = 'The target date must be after today';
    throw badRequest(message, { targetDate: [message] });
  }
  const key = input.clientRequestId;
  const once = await createOnce(deps, clientId, now, {
    find: (trx) => repo.findGoalsByKey(trx, clientId, key),
    insert: async (trx) => {
      const inserted = await repo.insertGoals(trx, {
        client_id: clientId,
        target_weight_kg: targetWeightKg,
        target_date: targetDate,
        waist_cm: waistCm,
        water_glasses: waterGlasses,
        steps,
        habit,
        set_by: actor.id,
        client_request_id: key,
        created_at: now,
      });
      return inserted && repo.findGoals(trx, inserted.id);
    },
    live: { part: 'goals' },
    same: (first) => ({
      targetWeightKg: [numberOrNull(first.target_weight_kg), targetWeightKg],
      targetDate: [first.target_date, targetDate],
      waistCm: [numberOrNull(first.waist_cm), waistCm],
      waterGlasses: [first.water_glasses, waterGlasses],
      steps: [first.steps, steps],
      habit: [first.habit, habit],
    }),
  });
  return { ...toGoals(once.row), repeated: !once.created };
}

/** The current goals (the newest setting), how far the client has come, and earlier settings. */
export async function goalsOverview(db: Db, actor: SessionUser, clientIdInput: number | undefined, now: Date): Promise<GoalsOverview> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  const [rows, weights, measurements] = await Promise.all([
    repo.listGoals(db, clientId),
    listWeights(db, clientId),
    repo.listMeasurements(db, clientId),
  ]);
  const history = rows.map(toGoals);
  const current = history[0] ?? null;
  const latest = weights[0] ?? null;
  const latestWaistCm = measurements.find((m) => m.waist_cm !== null)?.waist_cm ?? null;
  let startWeightKg: number | null = null;
  let weightPercent: number | null = null;
  if (current?.targetWeightKg != null && latest) {
    // The weigh-in nearest before the goals were set (else the first after): where the way to the target starts.
    const setOn = serviceDay(current.createdAt);
    const before = weights.find((w) => w.date <= setOn);
    startWeightKg = (before ?? weights[weights.length - 1]!).weight;
    const way = startWeightKg - current.targetWeightKg;
    const done = startWeightKg - latest.weight;
    weightPercent = way === 0 ? 100 : Math.max(0, Math.min(100, Math.round((done / way) * 100)));
  }
  return {
    current,
    history,
    progress: {
      startWeightKg,
      latestWeightKg: latest?.weight ?? null,
      latestWeightDate: latest?.date ?? null,
      weightPercent,
      latestWaistCm,
      daysLeft: current?.targetDate ? daysBetween(serviceDay(now), current.targetDate) : null,
    },
  };
}

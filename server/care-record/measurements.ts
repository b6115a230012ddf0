import { clientToActFor } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import * as repo from './repo.js';
import type { CreateMeasurementInput, Measurement } from './schema.js';
import { type CareRecordDeps, createOnce, numberOrNull, refuseFuture } from './shared.js';

// ---------------------------------------------------------------- measurements

const toMeasurement = (r: repo.MeasurementRow): Measurement => ({
  id: r.id,
  clientId: r.client_id,
  date: r.date,
  waistCm: r.waist_cm,
  hipCm: r.hip_cm,
  chestCm: r.chest_cm,
  armCm: r.arm_cm,
  thighCm: r.thigh_cm,
  createdAt: r.created_at,
});

const NO_MEASUREMENT = 'Enter at least one measurement: waist, hip, chest, arm or thigh';

export async function createMeasurement(deps: CareRecordDeps, actor: SessionUser, input: CreateMeasurementInput, now: Date) {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  refuseFuture(input.date, now);
  const parts = [input.waistCm, input.hipCm, input.chestCm, input.armCm, input.thighCm];
  if (parts.every((v) => v === null)) throw badRequest(NO_MEASUREMENT, { waistCm: [NO_MEASUREMENT] });
  const key = input.clientRequestId;
  const once = await createOnce(deps, clientId, now, {
    find: (trx) => repo.findMeasurementByKey(trx, clientId, key),
    insert: (trx) =>
      repo.insertMeasurement(trx, {
        client_id: clientId,
        date: input.date,
        waist_cm: input.waistCm,
        hip_cm: input.hipCm,
        chest_cm: input.chestCm,
        arm_cm: input.armCm,
        thigh_cm: input.thighCm,
        recorded_by: actor.id,
        client_request_id: key,
        created_at: now,
      }),
    live: { part: 'measurements' },
    same: (first) => ({
      date: [first.date, input.date],
      waistCm: [numberOrNull(first.waist_cm), input.waistCm],
      hipCm: [numberOrNull(first.hip_cm), input.hipCm],
      chestCm: [numberOrNull(first.chest_cm), input.chestCm],
      armCm: [numberOrNull(first.arm_cm), input.armCm],
      thighCm: [numberOrNull(first.thigh_cm), input.thighCm],
    }),
  });
  return { ...toMeasurement(once.row), repeated: !once.created };
}

export async function listMeasurements(db: Db, actor: SessionUser, clientIdInput: number | undefined): Promise<Measurement[]> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  return (await repo.listMeasurements(db, clientId)).map(toMeasurement);
}

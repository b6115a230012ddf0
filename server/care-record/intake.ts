import { clientToActFor } from '../auth/guards.js';
import { bucket, type KindedLimit, lockBuckets, recordSlots, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { notifyFollowUp } from '../check-in/bus.js';
import * as repo from './repo.js';
import { type Intake, intakeAnswers, missingIntakeAnswers, type SaveIntakeInput } from './schema.js';
import type { CareRecordDeps } from './shared.js';

// ---------------------------------------------------------------- intake

type IntakeRow = NonNullable<Awaited<ReturnType<typeof repo.findIntake>>>;

function toIntake(clientId: number, row: IntakeRow | undefined): Intake {
  if (!row) return { clientId, state: 'not-started', answers: intakeAnswers.parse({}), completedAt: null, updatedAt: null };
  // Answers are stored as they were checked; read them through the same schema so the shape is always whole.
  const parsed = intakeAnswers.safeParse(row.answers ?? {});
  return {
    clientId,
    state: row.completed_at ? 'done' : 'in-progress',
    answers: parsed.success ? parsed.data : intakeAnswers.parse({}),
    completedAt: row.completed_at,
    updatedAt: row.updated_at,
  };
}

export async function getIntake(db: Db, actor: SessionUser, clientIdInput: number | undefined): Promise<Intake> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  return toIntake(clientId, await repo.findIntake(db, clientId));
}

/**
 * Saves the questionnaire as it stands (the form sends it as the client goes):
 * every answer is checked on its own; `complete` also needs the required
 * answers. Once finished it stays finished, and later saves are edits.
 */
export async function saveIntake(deps: CareRecordDeps, actor: SessionUser, input: SaveIntakeInput, now: Date): Promise<Intake> {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  if (input.complete) {
    const missing = missingIntakeAnswers(input.answers);
    const first = Object.values(missing)[0];
    if (first) {
      throw badRequest(first[0]!, Object.fromEntries(Object.entries(missing).map(([field, messages]) => [`answers.${field}`, messages])));
    }
  }
  const limit: KindedLimit = { kind: 'intake-client', bucket: bucket.intakeClient(clientId), ...deps.config.rateLimits.intakeSaves };
  const row = await deps.db.transaction().execute(async (trx) => {
    await lockBuckets(trx, [limit]);
    const wait = await secondsUntilAllowed(trx, limit, now);
    if (wait > 0) throw tooManyRequests('saves of the questionnaire', wait, [limit.kind]);
    await recordSlots(trx, [limit], now);
    const saved = await repo.saveIntake(trx, {
      client_id: clientId,
      answers: JSON.stringify(input.answers),
      complete: input.complete === true,
      updated_by: actor.id,
      at: now,
    });
    await notifyFollowUp(trx, { kind: 'care-record', clientId, part: 'intake' });
    return saved;
  });
  return toIntake(clientId, row);
}

/** Of these clients, those who have not finished the intake questionnaire (the follow-up queue's "intake missing"). */
export async function intakeMissingAmong(db: Db, clientIds: readonly number[]): Promise<Set<number>> {
  const done = await repo.clientsWithIntakeDone(db, clientIds);
  return new Set(clientIds.filter((id) => !done.has(id)));
}

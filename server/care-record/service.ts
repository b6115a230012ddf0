import type { Kysely, Transaction } from 'kysely';
import { claimAttachments, toView } from '../attachments/service.js';
import { clientToActFor } from '../auth/guards.js';
import { bucket, type KindedLimit, lockBuckets, recordSlots, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import { ROLE } from '../auth/roles.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { insertOnce, type RepeatFields, sameRequest } from '../db/idempotent.js';
import type { Database } from '../db/schema.js';
import type { RateLimits } from '../env.js';
import { AppError, badRequest } from '../errors.js';
import { type FollowUpNotification, notifyFollowUp } from '../check-in/bus.js';
import { daysBetween, serviceDay } from '../time.js';
import { listWeights } from '../weight/repo.js';
import * as repo from './repo.js';
import {
  CONVERSATION_KIND,
  type CreateDocumentInput,
  type CreateGoalsInput,
  type CreateMeasurementInput,
  type CreateProgressPhotoInput,
  type DocumentItem,
  FUTURE_DATE_MESSAGE,
  type Goals,
  type GoalsOverview,
  type Intake,
  intakeAnswers,
  type Measurement,
  missingIntakeAnswers,
  type ProgressPhoto,
  type SaveIntakeInput,
} from './schema.js';

/**
 * The care record's rules (decision 117). Every call names one client's record
 * through clientToActFor: a client only their own (403 for another), a
 * dietitian any client who exists. Calendar days are India's (no client has a
 * time zone on file yet), and every create is counted per client against
 * RATE_LIMIT_CARE_RECORD, a repeat of its clientRequestId returning the first.
 */

export type CareRecordDeps = { db: Kysely<Database>; config: { rateLimits: Pick<RateLimits, 'careRecord' | 'intakeSaves'> } };


function refuseFuture(date: string, now: Date, field = 'date', message = FUTURE_DATE_MESSAGE) {
  if (date > serviceDay(now)) throw badRequest(message, { [field]: [message] });
}

/**
 * One new row of a client's record, stored once per clientRequestId and counted
 * against the client's limit only when it is new. `find` reads the row a key made;
 * `insert` stores it (undefined when the key was used already) and may claim files.
 * A new row is told live to both sides (`live`) once it commits.
 */
async function createOnce<Row>(
  deps: CareRecordDeps,
  clientId: number,
  now: Date,
  steps: {
    find: (trx: Transaction<Database>) => Promise<Row | undefined>;
    insert: (trx: Transaction<Database>) => Promise<Row | undefined>;
    /** What a repeat must carry as the first did (its key sent with other details is refused, 422). */
    same: (first: Row) => RepeatFields;
    /** The live note of a new row: which part of the record changed. */
    live: Omit<FollowUpNotification, 'kind' | 'clientId'>;
  },
): Promise<{ row: Row; created: boolean }> {
  const limit: KindedLimit = {
    kind: 'care-record-client',
    bucket: bucket.careRecordClient(clientId),
    ...deps.config.rateLimits.careRecord,
  };
  return deps.db.transaction().execute(async (trx) => {
    // One create at a time per client (the limit's lock): a repeat racing its first waits, then finds it.
    await lockBuckets(trx, [limit]);
    const sameAs = (row: Row) => sameRequest('clientRequestId', steps.same(row));
    const first = await steps.find(trx);
    if (first) {
      sameAs(first);
      return { row: first, created: false };
    }
    const wait = await secondsUntilAllowed(trx, limit, now);
    if (wait > 0) throw tooManyRequests('additions to this client’s record', wait, [limit.kind]);
    const once = await insertOnce({ insert: () => steps.insert(trx), existing: () => steps.find(trx), sameAs });
    if (once.created) {
      await recordSlots(trx, [limit], now);
      await notifyFollowUp(trx, { kind: 'care-record', clientId, ...steps.live });
    }
    return once;
  });
}

/** Claims the one upload a photo or document names; its refusals name this API's field, attachmentId. */
async function claimOne(trx: Transaction<Database>, args: Omit<Parameters<typeof claimAttachments>[1], 'ids'> & { id: string }) {
  try {
    const [view] = await claimAttachments(trx, { ...args, ids: [args.id] });
    return view!;
  } catch (error) {
    if (error instanceof AppError && error.fieldErrors?.attachmentIds) {
      throw badRequest(error.message, { attachmentId: error.fieldErrors.attachmentIds });
    }
    throw error;
  }
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

const nameOf = (first: string | null, last: string | null) =>
  first === null ? null : fullNameOf({ first_name: first, last_name: last ?? '' });

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

// ---------------------------------------------------------------- files: progress photos and documents

type FileColumns = {
  file_id: string;
  file_name: string;
  file_content_type: string;
  file_size: number;
  file_link_key: string;
  file_has_thumbnail: boolean;
};
const fileView = (r: FileColumns, now: number) =>
  toView(
    {
      id: r.file_id,
      name: r.file_name,
      content_type: r.file_content_type,
      size: r.file_size,
      link_key: r.file_link_key,
      has_thumbnail: r.file_has_thumbnail,
    },
    now,
  );

const toPhoto = (r: repo.ProgressPhotoRow, now = Date.now()): ProgressPhoto => ({
  id: r.id,
  clientId: r.client_id,
  date: r.date,
  pose: r.pose,
  photo: fileView(r, now),
  createdAt: r.created_at,
});

const NOT_A_PHOTO = 'A progress photo must be a photo (JPEG, PNG or WebP), not a PDF.';

export async function createProgressPhoto(deps: CareRecordDeps, actor: SessionUser, input: CreateProgressPhotoInput, now: Date) {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  refuseFuture(input.date, now);
  const key = input.clientRequestId;
  const attachmentId = input.attachmentId.toLowerCase();
  const once = await createOnce(deps, clientId, now, {
    find: (trx) => repo.findProgressPhotoByKey(trx, clientId, key),
    insert: async (trx) => {
      // Claimed first (it says why a file cannot be used); a repeat found its first row above and never gets here.
      const photo = await claimOne(trx, { uploaderId: actor.id, id: attachmentId, clientId, use: 'progress' });
      if (photo.contentType === 'application/pdf') throw badRequest(NOT_A_PHOTO, { attachmentId: [NOT_A_PHOTO] });
      const inserted = await repo.insertProgressPhoto(trx, {
        client_id: clientId,
        date: input.date,
        pose: input.pose,
        attachment_id: attachmentId,
        uploaded_by: actor.id,
        client_request_id: key,
        created_at: now,
      });
      if (!inserted) return undefined;
      return repo.findProgressPhoto(trx, inserted.id);
    },
    live: { part: 'photos' },
    same: (first) => ({ date: [first.date, input.date], pose: [first.pose, input.pose], attachmentId: [first.file_id, attachmentId] }),
  });
  return { ...toPhoto(once.row), repeated: !once.created };
}

export async function listProgressPhotos(db: Db, actor: SessionUser, clientIdInput: number | undefined): Promise<ProgressPhoto[]> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  const now = Date.now();
  return (await repo.listProgressPhotos(db, clientId)).map((r) => toPhoto(r, now));
}

const toDocument = (r: repo.DocumentRow, now = Date.now()): DocumentItem => ({
  id: `document-${r.id}`,
  clientId: r.client_id,
  kind: r.kind,
  title: r.title,
  date: r.date,
  addedBy: r.adder_role === ROLE.admin ? 'dietitian' : 'client',
  addedByName: nameOf(r.adder_first, r.adder_last),
  file: fileView(r, now),
  createdAt: r.created_at,
});

const fromConversation = (clientId: number, r: repo.ConversationFileRow, now: number): DocumentItem => ({
  id: `message-${r.file_id}`,
  clientId,
  kind: CONVERSATION_KIND,
  title: r.file_name,
  date: serviceDay(r.sent_at),
  addedBy: r.sender_role === 'client' ? 'client' : 'dietitian',
  addedByName: nameOf(r.sender_first, r.sender_last),
  file: fileView(r, now),
  createdAt: r.sent_at,
});

export async function createDocument(deps: CareRecordDeps, actor: SessionUser, input: CreateDocumentInput, now: Date) {
  const clientId = await clientToActFor(deps.db, actor, input.clientId, 'clientId');
  refuseFuture(input.date, now);
  const key = input.clientRequestId;
  const attachmentId = input.attachmentId.toLowerCase();
  const once = await createOnce(deps, clientId, now, {
    find: (trx) => repo.findDocumentByKey(trx, clientId, key),
    insert: async (trx) => {
      await claimOne(trx, { uploaderId: actor.id, id: attachmentId, clientId, use: 'document' });
      const inserted = await repo.insertDocument(trx, {
        client_id: clientId,
        kind: input.kind,
        title: input.title,
        date: input.date,
        attachment_id: attachmentId,
        uploaded_by: actor.id,
        client_request_id: key,
        created_at: now,
      });
      if (!inserted) return undefined;
      return repo.findDocument(trx, inserted.id);
    },
    live: { part: 'documents', labReport: input.kind === 'lab-report' && actor.role === ROLE.client },
    same: (first) => ({
      kind: [first.kind, input.kind],
      title: [first.title, input.title],
      date: [first.date, input.date],
      attachmentId: [first.file_id, attachmentId],
    }),
  });
  return { ...toDocument(once.row), repeated: !once.created };
}

/** Uploaded documents and every file sent in the conversation, newest date first. */
export async function listDocuments(db: Db, actor: SessionUser, clientIdInput: number | undefined): Promise<DocumentItem[]> {
  const clientId = await clientToActFor(db, actor, clientIdInput, 'clientId');
  const [uploads, sent] = await Promise.all([repo.listDocuments(db, clientId), repo.listConversationFiles(db, clientId)]);
  const now = Date.now();
  return [...uploads.map((r) => toDocument(r, now)), ...sent.map((r) => fromConversation(clientId, r, now))].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? 1 : -1) : b.createdAt.getTime() - a.createdAt.getTime(),
  );
}

/** Of these clients, those who have not finished the intake questionnaire (the follow-up queue's "intake missing"). */
export async function intakeMissingAmong(db: Db, clientIds: readonly number[]): Promise<Set<number>> {
  const done = await repo.clientsWithIntakeDone(db, clientIds);
  return new Set(clientIds.filter((id) => !done.has(id)));
}

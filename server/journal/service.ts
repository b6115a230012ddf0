import type { Kysely, Transaction } from 'kysely';
import { type AttachmentView, attachmentViews, claimAttachments, storageKey } from '../attachments/service.js';
import { deleteAttachments } from '../attachments/repo.js';
import { recordAudit } from '../audit/record.js';
import { clientToActFor } from '../auth/guards.js';
import { bucket, type KindedLimit, lockBuckets, recordSlots, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import { ROLE } from '../auth/roles.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import type { Database, Db } from '../db/index.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import type { Config } from '../env.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { FileStorage } from '../storage/storage.js';
import { dayIn, mondayOf, shiftDay } from './schema.js';
import { publishJournalSignal } from './events.js';
import { commentNotice, markNotice, replyNotices } from './notices.js';
import { planMealsOn } from './plan-day.js';
import * as repo from './repo.js';
import {
  type CreateMealInput,
  EDITABLE_DAYS,
  FUTURE_SLACK_MS,
  JOURNAL_ENTRY_MISSING,
  type JournalDay,
  LIST_RANGE_MAX_DAYS,
  type ListMealsInput,
  type MealComment,
  type MealEntry,
  type MealMark,
  type UpdateMealInput,
} from './schema.js';
import { recordNotices } from '../notifications/notify.js';

export type JournalDeps = {
  db: Kysely<Database>;
  storage: FileStorage;
  mailer: Mailer;
  config: Config;
};

const isDietitian = (actor: SessionUser) => actor.role === ROLE.admin;
const ONLY_CLIENT_LOGS = 'Only the client keeps their journal: dietitians comment on entries or mark them.';
const NOT_YOURS = 'You can only see and change your own journal.';
const TOO_OLD = `Entries of the last ${EDITABLE_DAYS} days can be changed; this one is older.`;

/** The journal's "today" for a client: India time (a client's own zone is not known yet). */
export const todayOf = (now: Date) => dayIn(now);
const editableFrom = (today: string) => shiftDay(today, -(EDITABLE_DAYS - 1));

/** Files of a journal belong to its client: whoever may see the journal sees them as the client does. */
const filesViewer = (clientId: number) => ({ id: clientId, role: ROLE.client });

function toComment(r: repo.CommentRow): MealComment {
  return {
    id: r.id,
    entryId: r.entry_id,
    author: {
      id: r.author_id,
      name:
        r.author_first === null
          ? 'A former member of the team'
          : fullNameOf({ first_name: r.author_first, last_name: r.author_last ?? '' }),
      role: r.author_role,
    },
    text: r.text,
    createdAt: r.created_at,
  };
}

/** Entries as their readers see them: photos with fresh signed links, marks and comments. */
export async function withDetails(db: Db, rows: readonly repo.EntryRow[], today: string): Promise<MealEntry[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [photoIds, comments] = await Promise.all([repo.photoIdsOf(db, ids), repo.commentsOf(db, ids)]);
  const views = new Map<number, Map<string, AttachmentView>>();
  for (const clientId of new Set(rows.map((r) => r.client_id))) {
    const ofClient = rows.filter((r) => r.client_id === clientId).flatMap((r) => photoIds.get(r.id) ?? []);
    views.set(clientId, ofClient.length ? await attachmentViews(db, ofClient, filesViewer(clientId)) : new Map());
  }
  const from = editableFrom(today);
  return rows.map((r) => ({
    id: r.id,
    clientId: r.client_id,
    clientEntryId: r.client_entry_id,
    meal: r.meal,
    eatenAt: r.eaten_at,
    date: r.eaten_on,
    description: r.description,
    hungerBefore: r.hunger_before,
    fullnessAfter: r.fullness_after,
    note: r.note,
    photos: (photoIds.get(r.id) ?? []).flatMap((id) => views.get(r.client_id)?.get(id) ?? []),
    mark:
      r.mark && r.marked_at
        ? {
            kind: r.mark,
            by: r.marker_first === null ? null : fullNameOf({ first_name: r.marker_first, last_name: r.marker_last ?? '' }),
            at: r.marked_at,
          }
        : null,
    comments: comments.filter((c) => c.entry_id === r.id).map(toComment),
    editable: r.eaten_on >= from && r.eaten_on <= today,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

const oneWithDetails = async (db: Db, row: repo.EntryRow, now: Date) => (await withDetails(db, [row], todayOf(now)))[0]!;

/** An entry the actor may see: any for a dietitian, only their own for a client (403), 404 when there is none. */
async function entryFor(db: Db, actor: SessionUser, id: number) {
  const entry = await repo.findEntry(db, id);
  if (!entry) throw notFound(JOURNAL_ENTRY_MISSING, { id: [JOURNAL_ENTRY_MISSING] });
  if (!isDietitian(actor) && entry.client_id !== actor.id) throw forbidden(NOT_YOURS);
  return entry;
}

/** When a meal was eaten, checked: at most a day ahead, and within the days a client may still change. */
function checkEatenAt(eatenAt: Date, now: Date): string {
  if (eatenAt.getTime() > now.getTime() + FUTURE_SLACK_MS) {
    const message = 'The time eaten is more than a day in the future. Check the date and time.';
    throw badRequest(message, { eatenAt: [message] });
  }
  const day = dayIn(eatenAt);
  if (day < editableFrom(todayOf(now))) {
    const message = `Meals of the last ${EDITABLE_DAYS} days can be logged; this one is older.`;
    throw badRequest(message, { eatenAt: [message] });
  }
  return day;
}

/** New entries and comments per writer: a flood from one account stops at the server. */
const journalLimit = (deps: JournalDeps, userId: number): KindedLimit => ({
  kind: 'journal-client',
  bucket: bucket.journalWriter(userId),
  ...deps.config.rateLimits.journal,
});

async function takeJournalSlot(trx: Db, limit: KindedLimit, now: Date, what: string) {
  const wait = await secondsUntilAllowed(trx, limit, now);
  if (wait > 0) throw tooManyRequests(what, wait, [limit.kind]);
}

/** The photos of an entry, claimed for the client's record in the entry's transaction: photos only, or nothing is stored. */
async function claimPhotos(trx: Transaction<Database>, actor: SessionUser, clientId: number, ids: readonly string[]) {
  const claimed = await claimAttachments(trx, { uploaderId: actor.id, ids, clientId, use: 'meal' });
  const notPhoto = claimed.find((a) => !a.contentType.startsWith('image/'));
  if (notPhoto) {
    const message = `“${notPhoto.name}” is not a photo. A meal takes photos (JPEG, PNG or WebP); send documents from Messages.`;
    throw badRequest(message, { attachmentIds: [message] });
  }
  return claimed.map((a) => a.id);
}

/**
 * The first entry, answering a repeat of its clientEntryId; sent with other details it is refused (422). An
 * entry its client has edited since no longer shows what the first request carried: it is answered as it is.
 */
async function repeatOfMeal(db: Db, row: repo.EntryRow, input: CreateMealInput, now: Date) {
  if (row.updated_at.getTime() === row.created_at.getTime()) {
    const photos = (await repo.photoIdsOf(db, [row.id])).get(row.id) ?? [];
    const lower = (ids: readonly string[]) => ids.map((id) => id.toLowerCase());
    sameRequest('clientEntryId', {
      meal: [row.meal, input.meal],
      ...(input.eatenAt === undefined ? {} : { eatenAt: [row.eaten_at, input.eatenAt] }),
      description: [row.description, input.description],
      hungerBefore: [row.hunger_before, input.hungerBefore ?? null],
      fullnessAfter: [row.fullness_after, input.fullnessAfter ?? null],
      note: [row.note, input.note ?? null],
      attachmentIds: [lower(photos), lower(input.attachmentIds ?? [])],
    });
  }
  return { ...(await oneWithDetails(db, row, now)), repeated: true };
}

class RepeatedCreate {
  constructor(readonly row: repo.EntryRow) {}
}

/**
 * Logs a meal. The client's key (clientEntryId) makes the create safe to
 * send again, from a retry or an offline queue: a repeat answers the first
 * entry (repeated: true) and is not counted against the limit.
 */
export async function createMeal(deps: JournalDeps, actor: SessionUser, input: CreateMealInput, now: Date) {
  if (isDietitian(actor)) throw forbidden(ONLY_CLIENT_LOGS);
  const key = input.clientEntryId;
  const first = await repo.findEntryByKey(deps.db, actor.id, key);
  if (first) return repeatOfMeal(deps.db, first, input, now);
  const eatenAt = input.eatenAt ?? now;
  const day = checkEatenAt(eatenAt, now);
  const limit = journalLimit(deps, actor.id);
  try {
    const row = await deps.db.transaction().execute(async (trx) => {
      await lockBuckets(trx, [limit]);
      const raced = await repo.findEntryByKey(trx, actor.id, key);
      if (raced) throw new RepeatedCreate(raced);
      await takeJournalSlot(trx, limit, now, 'journal entries in a short time');
      const once = await insertOnce({
        insert: () =>
          repo.insertEntry(trx, {
            client_id: actor.id,
            created_by: actor.id,
            client_entry_id: key,
            meal: input.meal,
            eaten_at: eatenAt,
            eaten_on: day,
            description: input.description,
            hunger_before: input.hungerBefore ?? null,
            fullness_after: input.fullnessAfter ?? null,
            note: input.note,
          }),
        existing: () => repo.findEntryByKey(trx, actor.id, key),
      });
      if (!once.created) throw new RepeatedCreate(once.row);
      if (input.attachmentIds?.length)
        await repo.insertPhotos(trx, once.row.id, await claimPhotos(trx, actor, actor.id, input.attachmentIds));
      await recordSlots(trx, [limit], now);
      await publishJournalSignal(trx, { clientId: actor.id, kind: 'entry', entryId: once.row.id, date: day });
      return once.row;
    });
    return { ...(await oneWithDetails(deps.db, row, now)), repeated: false };
  } catch (err) {
    if (err instanceof RepeatedCreate) return repeatOfMeal(deps.db, err.row, input, now);
    throw err;
  }
}

/** An entry its client may still change (their own, of the last 7 days), locked in `trx`. */
async function changeableEntry(trx: Db, actor: SessionUser, id: number, now: Date) {
  if (isDietitian(actor)) throw forbidden(ONLY_CLIENT_LOGS);
  const entry = await repo.lockEntry(trx, id);
  if (!entry) throw notFound(JOURNAL_ENTRY_MISSING, { id: [JOURNAL_ENTRY_MISSING] });
  if (entry.client_id !== actor.id) throw forbidden(NOT_YOURS);
  if (entry.eaten_on < editableFrom(todayOf(now))) throw conflict(TOO_OLD);
  return entry;
}

/** Edits an entry of the last 7 days: only the fields sent change; attachmentIds, when sent, is the new list of photos. */
export async function updateMeal(deps: JournalDeps, actor: SessionUser, input: UpdateMealInput, now: Date) {
  const removed = await deps.db.transaction().execute(async (trx) => {
    const entry = await changeableEntry(trx, actor, input.id, now);
    const day = input.eatenAt ? checkEatenAt(input.eatenAt, now) : entry.eaten_on;
    await repo.updateEntry(
      trx,
      entry.id,
      {
        meal: input.meal,
        eaten_at: input.eatenAt,
        eaten_on: input.eatenAt ? day : undefined,
        description: input.description,
        hunger_before: input.hungerBefore,
        fullness_after: input.fullnessAfter,
        note: input.note,
      },
      now,
    );
    let dropped: string[] = [];
    if (input.attachmentIds) {
      const wanted = input.attachmentIds.map((id) => id.toLowerCase());
      const current = (await repo.photoIdsOf(trx, [entry.id])).get(entry.id) ?? [];
      const added = wanted.filter((id) => !current.includes(id));
      dropped = current.filter((id) => !wanted.includes(id));
      // Photos taken away are deleted with their files (below, once this commits): they are health data nobody sees any more.
      if (dropped.length) await deleteAttachments(trx, dropped);
      if (added.length) await repo.insertPhotos(trx, entry.id, await claimPhotos(trx, actor, entry.client_id, added), 100);
      await repo.reorderPhotos(trx, entry.id, wanted);
    }
    await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: day });
    if (day !== entry.eaten_on)
      await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: entry.eaten_on });
    return dropped;
  });
  await deleteFiles(deps, removed);
  const row = await repo.findEntry(deps.db, input.id);
  if (!row) throw notFound(JOURNAL_ENTRY_MISSING, { id: [JOURNAL_ENTRY_MISSING] });
  return oneWithDetails(deps.db, row, now);
}

async function deleteFiles(deps: JournalDeps, ids: readonly string[]) {
  for (const id of ids) {
    await deps.storage.delete(storageKey(id, 'file'));
    await deps.storage.delete(storageKey(id, 'thumbnail'));
  }
}

/** Deletes an entry of the last 7 days, with its photos and comments. */
export async function deleteMeal(deps: JournalDeps, actor: SessionUser, id: number, now: Date) {
  const photos = await deps.db.transaction().execute(async (trx) => {
    const entry = await changeableEntry(trx, actor, id, now);
    const photoIds = (await repo.photoIdsOf(trx, [entry.id])).get(entry.id) ?? [];
    if (photoIds.length) await deleteAttachments(trx, photoIds);
    await repo.deleteEntry(trx, entry.id);
    await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: entry.eaten_on });
    return photoIds;
  });
  await deleteFiles(deps, photos);
  return { id, message: 'Entry deleted' };
}

/** The journal's days lie between 1900 and a year from today (a day far outside has nothing, and no neighbours to count). */
function checkDay(field: string, day: string | undefined, today: string) {
  if (day === undefined) return;
  if (day < '1900-01-01' || day > shiftDay(today, 366)) {
    const message = `${field} must be a day between 1900 and a year from today`;
    throw badRequest(message, { [field]: [message] });
  }
}

/** A dietitian reading a client's journal is recorded in the audit log (health data access). */
async function auditRead(db: Db, actor: SessionUser, clientId: number, range: { from: string; to: string }) {
  if (!isDietitian(actor)) return;
  await recordAudit(db, actor, {
    action: 'journal.viewed',
    entity: 'user',
    entityId: clientId,
    summary: `Viewed the meal journal of client #${clientId}`,
    details: range,
  });
}

/** A client's entries of [from, to] (the last 7 days by default), oldest first. */
export async function listMeals(db: Db, actor: SessionUser, input: ListMealsInput, now: Date) {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  const today = todayOf(now);
  checkDay('from', input.from, today);
  checkDay('to', input.to, today);
  const to = input.to ?? (input.from ? shiftDay(input.from, EDITABLE_DAYS - 1) : today);
  const from = input.from ?? shiftDay(to, -(EDITABLE_DAYS - 1));
  if (shiftDay(from, LIST_RANGE_MAX_DAYS - 1) < to) {
    const message = `Ask for at most ${LIST_RANGE_MAX_DAYS} days at a time.`;
    throw badRequest(message, { from: [message] });
  }
  await auditRead(db, actor, clientId, { from, to });
  return { clientId, from, to, entries: await withDetails(db, await repo.entriesBetween(db, clientId, from, to), today) };
}

/** The day view: the day's meals, water, the plan's meals for the day, and which days of its week have entries. */
export async function journalDay(db: Db, actor: SessionUser, input: { clientId?: number; date?: string }, now: Date): Promise<JournalDay> {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  const today = todayOf(now);
  checkDay('date', input.date, today);
  const date = input.date ?? today;
  const weekStart = mondayOf(date);
  const [rows, water, plan, loggedDays] = await Promise.all([
    repo.entriesBetween(db, clientId, date, date),
    repo.waterOn(db, clientId, date),
    planMealsOn(db, clientId, date),
    repo.daysWithEntries(db, clientId, weekStart, shiftDay(weekStart, 6)),
  ]);
  await auditRead(db, actor, clientId, { from: date, to: date });
  return {
    clientId,
    date,
    today,
    weekStart,
    editableFrom: editableFrom(today),
    entries: await withDetails(db, rows, today),
    water,
    plan,
    loggedDays,
  };
}

/** Who watches a journal live (a client their own; a dietitian names the client). */
export async function journalViewer(db: Db, actor: SessionUser, clientId: number | undefined) {
  return { clientId: await clientToActFor(db, actor, clientId, 'clientId') };
}

class RepeatedComment {
  constructor(readonly row: repo.CommentRow) {}
}

/**
 * A comment under an entry, by its client or a dietitian. A dietitian's
 * comment tells the client (notifications/notify.ts, the 'messages'
 * category), naming the event only; both sides see it live.
 */
export async function addComment(
  deps: JournalDeps,
  actor: SessionUser,
  input: { entryId: number; text: string; clientCommentId?: string },
  now: Date,
) {
  const entry = await entryFor(deps.db, actor, input.entryId);
  const key = input.clientCommentId ?? null;
  const repeatOf = (row: repo.CommentRow) => {
    if (row.entry_id !== entry.id) throw conflict('This clientCommentId was already used for a comment on another entry.');
    sameRequest('clientCommentId', { text: [row.text, input.text] });
    return { ...toComment(row), repeated: true };
  };
  if (key) {
    const first = await repo.findCommentByKey(deps.db, actor.id, key);
    if (first) return repeatOf(first);
  }
  const limit = journalLimit(deps, actor.id);
  const role = isDietitian(actor) ? 'dietitian' : 'client';
  try {
    let deliver = () => {};
    const row = await deps.db.transaction().execute(async (trx) => {
      await lockBuckets(trx, [limit]);
      if (key) {
        const raced = await repo.findCommentByKey(trx, actor.id, key);
        if (raced) throw new RepeatedComment(raced);
      }
      await takeJournalSlot(trx, limit, now, 'comments in a short time');
      const once = await insertOnce({
        insert: () =>
          repo.insertComment(trx, {
            entry_id: entry.id,
            author_id: actor.id,
            author_role: role,
            client_comment_id: key,
            text: input.text,
            created_at: now,
          }),
        existing: async () => (key ? repo.findCommentByKey(trx, actor.id, key) : undefined),
      });
      if (!once.created) throw new RepeatedComment(once.row);
      await recordSlots(trx, [limit], now);
      await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'comment', entryId: entry.id, date: entry.eaten_on });
      if (role === 'dietitian') {
        await recordAudit(trx, actor, {
          action: 'journal.commented',
          entity: 'meal_entry',
          entityId: entry.id,
          summary: `Commented on a meal of client #${entry.client_id}`,
          details: { clientId: entry.client_id, commentId: once.row.id },
        });
        const client = await repo.clientContact(trx, entry.client_id);
        if (client?.is_active) deliver = await recordNotices(trx, deps, [commentNotice(deps, client, actor, once.row.id)]);
      } else {
        // The client answered in the thread: the care team hears of it on their devices.
        const team = await repo.careTeamOf(trx, entry.client_id);
        deliver = await recordNotices(trx, deps, replyNotices({ id: actor.id, first_name: actor.firstName }, team, once.row.id));
      }
      return once.row;
    });
    deliver();
    return { ...toComment(row), repeated: false };
  } catch (err) {
    if (err instanceof RepeatedComment) return repeatOf(err.row);
    throw err;
  }
}

/** A dietitian marks an entry (looks good / let's talk), or takes the mark away; the client hears of a mark. */
export async function markEntry(deps: JournalDeps, actor: SessionUser, input: { entryId: number; mark: MealMark | null }, now: Date) {
  const entry = await entryFor(deps.db, actor, input.entryId);
  let deliver = () => {};
  await deps.db.transaction().execute(async (trx) => {
    await repo.setMark(trx, entry.id, input.mark, input.mark ? actor.id : null, input.mark ? now : null);
    await recordAudit(trx, actor, {
      action: 'journal.marked',
      entity: 'meal_entry',
      entityId: entry.id,
      summary: `Marked a meal of client #${entry.client_id}: ${input.mark ?? 'no mark'}`,
      details: { clientId: entry.client_id, mark: input.mark },
    });
    await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: entry.eaten_on });
    const client = input.mark && input.mark !== entry.mark ? await repo.clientContact(trx, entry.client_id) : null;
    if (client?.is_active && input.mark) deliver = await recordNotices(trx, deps, [markNotice(client, entry.id, input.mark, now)]);
  });
  deliver();
  const row = await repo.findEntry(deps.db, entry.id);
  if (!row) throw notFound(JOURNAL_ENTRY_MISSING, { id: [JOURNAL_ENTRY_MISSING] });
  return oneWithDetails(deps.db, row, now);
}

/* Water. */

export async function getWater(db: Db, actor: SessionUser, input: { clientId?: number; date?: string }, now: Date) {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  checkDay('date', input.date, todayOf(now));
  const date = input.date ?? todayOf(now);
  return { clientId, date, glasses: await repo.waterOn(db, clientId, date) };
}

/** Sets the glasses of water of a day of the last 7 (the client's counter). */
export async function setWater(db: Kysely<Database>, actor: SessionUser, input: { date: string; glasses: number }, now: Date) {
  if (isDietitian(actor)) throw forbidden('Only the client counts their water.');
  const today = todayOf(now);
  if (input.date > today) {
    const message = 'Water can be counted for today or earlier, not for a day to come.';
    throw badRequest(message, { date: [message] });
  }
  if (input.date < editableFrom(today)) {
    const message = `Water can be counted for the last ${EDITABLE_DAYS} days only.`;
    throw badRequest(message, { date: [message] });
  }
  await db.transaction().execute(async (trx) => {
    await repo.setWater(trx, actor.id, input.date, input.glasses, now);
    await publishJournalSignal(trx, { clientId: actor.id, kind: 'water', entryId: null, date: input.date });
  });
  return { clientId: actor.id, date: input.date, glasses: input.glasses };
}

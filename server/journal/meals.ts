import type { Transaction } from 'kysely';
import { claimAttachments, storageKey } from '../attachments/service.js';
import { deleteAttachments } from '../attachments/repo.js';
import { lockBuckets, recordSlots } from '../auth/rate-limit.js';
import type { SessionUser } from '../auth/session.js';
import type { Database, Db } from '../db/index.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { dayIn } from './schema.js';
import { publishJournalSignal } from './events.js';
import { itemsKey, resolveItems, saveItems } from './items.js';
import * as repo from './repo.js';
import {
  type CreateMealInput,
  EDITABLE_DAYS,
  FUTURE_SLACK_MS,
  JOURNAL_ENTRY_MISSING,
  MEAL_SAYS_NOTHING,
  type UpdateMealInput,
} from './schema.js';
import {
  editableFrom,
  isDietitian,
  type JournalDeps,
  journalLimit,
  NOT_YOURS,
  ONLY_CLIENT_LOGS,
  entryAfterChange,
  oneWithDetails,
  TOO_OLD,
  takeJournalSlot,
  todayOf,
} from './service.js';

/** Logging, editing and deleting a meal: the client's own, of the last 7 days. */

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
async function repeatOfMeal(db: Db, actor: SessionUser, row: repo.EntryRow, input: CreateMealInput, now: Date) {
  const answer = await oneWithDetails(db, actor, row, now);
  if (row.updated_at.getTime() === row.created_at.getTime()) {
    const photos = (await repo.photoIdsOf(db, [row.id])).get(row.id) ?? [];
    const lower = (ids: readonly string[]) => ids.map((id) => id.toLowerCase());
    sameRequest('clientEntryId', {
      meal: [row.meal, input.meal],
      ...(input.eatenAt === undefined ? {} : { eatenAt: [row.eaten_at, input.eatenAt] }),
      description: [row.description, input.description ?? ''],
      hungerBefore: [row.hunger_before, input.hungerBefore ?? null],
      fullnessAfter: [row.fullness_after, input.fullnessAfter ?? null],
      note: [row.note, input.note ?? null],
      attachmentIds: [lower(photos), lower(input.attachmentIds ?? [])],
      items: [itemsKey(answer.items), itemsKey(input.items ?? [])],
    });
  }
  return { ...answer, repeated: true };
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
  if (first) return repeatOfMeal(deps.db, actor, first, input, now);
  const eatenAt = input.eatenAt ?? now;
  const day = checkEatenAt(eatenAt, now);
  if (!input.description && !input.items?.length && !input.attachmentIds?.length)
    throw badRequest(MEAL_SAYS_NOTHING, { description: [MEAL_SAYS_NOTHING] });
  const items = input.items?.length ? await resolveItems(deps.db, input.items) : [];
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
            description: input.description ?? '',
            hunger_before: input.hungerBefore ?? null,
            fullness_after: input.fullnessAfter ?? null,
            note: input.note,
          }),
        existing: () => repo.findEntryByKey(trx, actor.id, key),
      });
      if (!once.created) throw new RepeatedCreate(once.row);
      if (input.attachmentIds?.length)
        await repo.insertPhotos(trx, once.row.id, await claimPhotos(trx, actor, actor.id, input.attachmentIds));
      if (items.length) await saveItems(trx, once.row.id, items, actor.id, now);
      await recordSlots(trx, [limit], now);
      await publishJournalSignal(trx, { clientId: actor.id, kind: 'entry', entryId: once.row.id, date: day });
      return once.row;
    });
    return { ...(await oneWithDetails(deps.db, actor, row, now)), repeated: false };
  } catch (err) {
    if (err instanceof RepeatedCreate) return repeatOfMeal(deps.db, actor, err.row, input, now);
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
  const items = input.items?.length ? await resolveItems(deps.db, input.items) : [];
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
    if (input.items) await saveItems(trx, entry.id, items, actor.id, now);
    await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: day });
    if (day !== entry.eaten_on)
      await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: entry.eaten_on });
    return dropped;
  });
  await deleteFiles(deps, removed);
  return entryAfterChange(deps.db, actor, input.id, now);
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

import type { Kysely } from 'kysely';
import { type AttachmentView, attachmentViews } from '../attachments/service.js';
import { recordAudit } from '../audit/record.js';
import { clientToActFor } from '../auth/guards.js';
import { bucket, type KindedLimit, secondsUntilAllowed, tooManyRequests } from '../auth/rate-limit.js';
import { ROLE } from '../auth/roles.js';
import { fullNameOf, type SessionUser } from '../auth/session.js';
import type { Database, Db } from '../db/index.js';
import type { Config } from '../env.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { FileStorage } from '../storage/storage.js';
import { addDays as shiftDay, dayIn, mondayOf } from '../time.js';
import { publishJournalSignal } from './events.js';
import { addTotals } from '../nutrition/compute.js';
import { numbersShownTo, targetsFor } from '../nutrition/days.js';
import { foodsOfEntries } from './items.js';
import { planMealsOn } from './plan-day.js';
import * as repo from './repo.js';
import {
  EDITABLE_DAYS,
  JOURNAL_ENTRY_MISSING,
  type JournalDay,
  LIST_RANGE_MAX_DAYS,
  type ListMealsInput,
  type MealComment,
  type MealEntry,
} from './schema.js';

export type JournalDeps = {
  db: Kysely<Database>;
  storage: FileStorage;
  mailer: Mailer;
  config: Config;
};

export const isDietitian = (actor: SessionUser) => actor.role === ROLE.admin;
export const ONLY_CLIENT_LOGS = 'Only the client keeps their journal: dietitians comment on entries or mark them.';
export const NOT_YOURS = 'You can only see and change your own journal.';
export const TOO_OLD = `Entries of the last ${EDITABLE_DAYS} days can be changed; this one is older.`;

/** The journal's "today" for a client: India time (a client's own zone is not known yet). */
export const todayOf = (now: Date) => dayIn(now);
export const editableFrom = (today: string) => shiftDay(today, -(EDITABLE_DAYS - 1));

/** Files of a journal belong to its client: whoever may see the journal sees them as the client does. */
const filesViewer = (clientId: number) => ({ id: clientId, role: ROLE.client });

export function toComment(r: repo.CommentRow): MealComment {
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

/** Entries as their readers see them: photos with fresh signed links, marks, comments, and the foods with what they add up to. */
export async function withDetails(db: Db, actor: SessionUser, rows: readonly repo.EntryRow[], today: string): Promise<MealEntry[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const clients = [...new Set(rows.map((r) => r.client_id))];
  const [photoIds, comments, shown] = await Promise.all([
    repo.photoIdsOf(db, ids),
    repo.commentsOf(db, ids),
    Promise.all(clients.map(async (id) => [id, await numbersShownTo(db, actor, id)] as const)).then((pairs) => new Map(pairs)),
  ]);
  const clientOf = new Map(rows.map((r) => [r.id, r.client_id]));
  const foods = await foodsOfEntries(db, ids, (id) => shown.get(clientOf.get(id)!) ?? false);
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
    items: foods.get(r.id)?.items ?? [],
    totals: foods.get(r.id)?.totals ?? null,
    editable: r.eaten_on >= from && r.eaten_on <= today,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

export const oneWithDetails = async (db: Db, actor: SessionUser, row: repo.EntryRow, now: Date) =>
  (await withDetails(db, actor, [row], todayOf(now)))[0]!;

/** An entry read again after a change, as its reader sees it. */
export async function entryAfterChange(db: Db, actor: SessionUser, id: number, now: Date) {
  const row = await repo.findEntry(db, id);
  if (!row) throw notFound(JOURNAL_ENTRY_MISSING, { id: [JOURNAL_ENTRY_MISSING] });
  return oneWithDetails(db, actor, row, now);
}

/** An entry the actor may see: any for a dietitian, only their own for a client (403), 404 when there is none. */
export async function entryFor(db: Db, actor: SessionUser, id: number) {
  const entry = await repo.findEntry(db, id);
  if (!entry) throw notFound(JOURNAL_ENTRY_MISSING, { id: [JOURNAL_ENTRY_MISSING] });
  if (!isDietitian(actor) && entry.client_id !== actor.id) throw forbidden(NOT_YOURS);
  return entry;
}

/** New entries and comments per writer: a flood from one account stops at the server. */
export const journalLimit = (deps: JournalDeps, userId: number): KindedLimit => ({
  kind: 'journal-client',
  bucket: bucket.journalWriter(userId),
  ...deps.config.rateLimits.journal,
});

export async function takeJournalSlot(trx: Db, limit: KindedLimit, now: Date, what: string) {
  const wait = await secondsUntilAllowed(trx, limit, now);
  if (wait > 0) throw tooManyRequests(what, wait, [limit.kind]);
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
  return { clientId, from, to, entries: await withDetails(db, actor, await repo.entriesBetween(db, clientId, from, to), today) };
}

/** The day view: the day's meals, water, the plan's meals for the day, and which days of its week have entries. */
export async function journalDay(db: Db, actor: SessionUser, input: { clientId?: number; date?: string }, now: Date): Promise<JournalDay> {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  const today = todayOf(now);
  checkDay('date', input.date, today);
  const date = input.date ?? today;
  const weekStart = mondayOf(date);
  const [rows, water, plan, loggedDays, { targets, showNumbers }] = await Promise.all([
    repo.entriesBetween(db, clientId, date, date),
    repo.waterOn(db, clientId, date),
    planMealsOn(db, clientId, date),
    repo.daysWithEntries(db, clientId, weekStart, shiftDay(weekStart, 6)),
    targetsFor(db, clientId),
  ]);
  await auditRead(db, actor, clientId, { from: date, to: date });
  const entries = await withDetails(db, actor, rows, today);
  const shown = isDietitian(actor) || showNumbers;
  // The day is the sum of its meals' totals: the same numbers each meal shows add up to the day's.
  const totals = addTotals(entries.flatMap((e) => (e.totals ? [e.totals] : [])));
  return {
    clientId,
    date,
    today,
    weekStart,
    editableFrom: editableFrom(today),
    entries,
    water,
    plan,
    loggedDays,
    showNumbers,
    totals: shown ? totals : null,
    targets: shown ? targets : null,
  };
}

/** Who watches a journal live (a client their own; a dietitian names the client). */
export async function journalViewer(db: Db, actor: SessionUser, clientId: number | undefined) {
  return { clientId: await clientToActFor(db, actor, clientId, 'clientId') };
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

import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import * as repo from './repo.js';
import { CONVERSATION_MISSING, type OfficeHours } from './schema.js';

/** The console's own settings for messages: office hours and saved replies. */

/** Office hours as set in the console; null when never set (always open). */
export async function officeHoursOf(db: Db): Promise<OfficeHours | null> {
  return hoursOf(await repo.findSettings(db));
}

function hoursOf(row: Awaited<ReturnType<typeof repo.findSettings>>): OfficeHours | null {
  if (!row?.office_opens || !row.office_closes) return null;
  const days = row.office_days ? row.office_days.split(',').map(Number) : null;
  return { days, opens: row.office_opens, closes: row.office_closes };
}

export type KnownOfficeHours = { hours: OfficeHours | null; version: string | null };

/**
 * The office hours a send judges "closed" by, read once per instance and kept (on the messages bus):
 * message_send compares their version with the stored one under the sender's lock and answers 'stale-hours'
 * when they changed (decision 123), and the caller asks again with `fresh`. So a change made on any instance
 * counts from the next send.
 */
export class KeptOfficeHours {
  private known: KnownOfficeHours | undefined;

  async get(reader: Db, fresh = false): Promise<KnownOfficeHours> {
    if (this.known && !fresh) return this.known;
    const row = await repo.findSettings(reader);
    this.known = { hours: hoursOf(row), version: row?.version ?? null };
    return this.known;
  }
}

export async function setOfficeHours(db: Db, actor: SessionUser, hours: OfficeHours, now: Date): Promise<OfficeHours> {
  const days = hours.days && hours.days.length > 0 ? [...new Set(hours.days)].sort((a, b) => a - b) : null;
  await db.transaction().execute(async (trx) => {
    await repo.saveSettings(trx, {
      office_days: days ? days.join(',') : null,
      office_opens: hours.opens,
      office_closes: hours.closes,
      updated_by: actor.id,
      updated_at: now,
    });
    await recordAudit(trx, actor, {
      action: 'office-hours.updated',
      entity: 'message_settings',
      entityId: 1,
      summary: days ? `Set office hours to ${hours.opens}–${hours.closes} (India time)` : 'Set office hours to always open',
      details: { days, opens: hours.opens, closes: hours.closes },
    });
  });
  return { days, opens: hours.opens, closes: hours.closes };
}

const SAVED_REPLY_MISSING = 'That saved reply does not exist.';
const toSavedReply = (r: { id: number; title: string; body: string; updated_at: Date }) => ({
  id: r.id,
  title: r.title,
  body: r.body,
  updatedAt: r.updated_at,
});

export async function listSavedReplies(db: Db) {
  return (await repo.listSavedReplies(db)).map(toSavedReply);
}

export async function createSavedReply(db: Db, actor: SessionUser, input: { title: string; body: string }) {
  return toSavedReply(await repo.insertSavedReply(db, { title: input.title, body: input.body, created_by: actor.id }));
}

export async function updateSavedReply(db: Db, input: { id: number; title: string; body: string }, now: Date) {
  const row = await repo.updateSavedReply(db, input.id, { title: input.title, body: input.body, updated_at: now });
  if (!row) throw notFound(SAVED_REPLY_MISSING, { id: [SAVED_REPLY_MISSING] });
  return toSavedReply(row);
}

export async function deleteSavedReply(db: Db, input: { id: number }) {
  if (!(await repo.deleteSavedReply(db, input.id))) throw notFound(SAVED_REPLY_MISSING, { id: [SAVED_REPLY_MISSING] });
  return { id: input.id };
}

const DIETITIAN_MISSING = 'That dietitian does not exist or is deactivated.';

/** The dietitian notified first about a client's messages (null: every dietitian). */
export async function setPrimaryDietitian(db: Db, actor: SessionUser, input: { conversationId: number; dietitianId: number | null }) {
  if (input.dietitianId !== null) {
    const dietitian = await repo.findDietitian(db, input.dietitianId);
    if (!dietitian?.is_active) throw badRequest(DIETITIAN_MISSING, { dietitianId: [DIETITIAN_MISSING] });
  }
  await db.transaction().execute(async (trx) => {
    const updated = await repo.setPrimaryDietitian(trx, input.conversationId, input.dietitianId);
    if (Number(updated.numUpdatedRows) === 0) throw notFound(CONVERSATION_MISSING, { conversationId: [CONVERSATION_MISSING] });
    await recordAudit(trx, actor, {
      action: 'conversation.primary-dietitian',
      entity: 'conversation',
      entityId: input.conversationId,
      summary: input.dietitianId === null ? 'Cleared the primary dietitian' : 'Set the primary dietitian',
      details: { dietitianId: input.dietitianId },
    });
  });
}

import { recordAudit } from '../audit/record.js';
import { lockBuckets, recordSlots } from '../auth/rate-limit.js';
import type { SessionUser } from '../auth/session.js';
import { insertOnce, sameRequest } from '../db/idempotent.js';
import { conflict } from '../errors.js';
import { recordNotices } from '../notifications/notify.js';
import { publishJournalSignal } from './events.js';
import { resolveItems, saveItems } from './items.js';
import { commentNotice, markNotice, replyNotices } from './notices.js';
import * as repo from './repo.js';
import type { MealItemInput, MealMark } from './schema.js';
import { entryAfterChange, entryFor, isDietitian, type JournalDeps, journalLimit, takeJournalSlot, toComment } from './service.js';

/** The conversation around a meal: comments from both sides, and the dietitian's marks and estimates. */

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
  return entryAfterChange(deps.db, actor, entry.id, now);
}

/**
 * A dietitian's estimate of a client's meal (a photo, a few words): the foods it shows, replacing
 * the foods it listed. Any meal of the client, however old (it is the dietitian's reading, not the
 * client's log); audited, and the client's journal shows it live.
 */
export async function estimateMeal(deps: JournalDeps, actor: SessionUser, input: { entryId: number; items: MealItemInput[] }, now: Date) {
  const entry = await entryFor(deps.db, actor, input.entryId);
  const items = await resolveItems(deps.db, input.items);
  await deps.db.transaction().execute(async (trx) => {
    await saveItems(trx, entry.id, items, actor.id, now);
    await recordAudit(trx, actor, {
      action: 'journal.estimated',
      entity: 'meal_entry',
      entityId: entry.id,
      summary: `Estimated the foods of a meal of client #${entry.client_id}`,
      details: { clientId: entry.client_id, foods: items.length },
    });
    await publishJournalSignal(trx, { clientId: entry.client_id, kind: 'entry', entryId: entry.id, date: entry.eaten_on });
  });
  return entryAfterChange(deps.db, actor, entry.id, now);
}

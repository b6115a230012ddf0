import { z } from 'zod';
import { defineRoutes, pathId, untrusted, withBody } from '../rest/route.js';
import {
  commentFields,
  estimateFields,
  mealEntry,
  mealFields,
  savedMealEntry,
  updateMealFields,
  waterDay,
  waterInput,
  mealComment,
} from './schema.js';

/** The path names the entry; the procedures take it as id (or entryId). */
const idParam = z.object({ id: z.string().describe('The meal entry’s id') });

const NOT_YOURS = 'The entry is another client’s (a client sees only their own journal).';
const LIMITED = 'Too many new entries or comments from this person in a short time (RATE_LIMIT_JOURNAL; see Retry-After)';

export const journalRoutes = defineRoutes([
  {
    method: 'post',
    path: '/meals',
    summary:
      'Log a meal (clients): clientEntryId (a UUID made once per entry, kept while retrying or replaying an offline queue), meal (early-morning, breakfast, mid-morning, lunch, evening-snack, dinner, other), eatenAt (ISO 8601; now when left out; at most a day ahead, at most 7 days back), description (may be left out when the meal lists foods or has a photo), optional hungerBefore and fullnessAfter (1–10), note, attachmentIds (photos from POST /api/attachments, at most 4) and items: the foods eaten, [{ foodId, quantity, unit }] (foods from GET /api/foods; unit g, ml or a household measure the food has, such as katori or roti; at most 20). 201 with the entry: each item with its grams and nutrients, and the meal’s totals (no numbers for a client whose dietitian keeps them from the client); the same clientEntryId again answers 200 with the first entry (repeated: true)',
    tag: 'Meal journal',
    auth: 'required',
    request: { body: mealFields },
    response: savedMealEntry,
    successStatus: 201,
    repeatAnswer: 'The clientEntryId was sent before: the first entry, with repeated: true; nothing new is stored',
    errors: {
      403: 'Only the client logs their meals (dietitians comment or mark).',
      422: 'A food is not in the food library, or has no such measure (the message names it and the measures it has).',
      429: LIMITED,
    },
    handle: async ({ caller, body }) => {
      const saved = await caller.journal.create(untrusted(body));
      return saved.repeated
        ? { status: 200, message: 'This meal was logged already.', data: saved }
        : { status: 201, message: 'Meal logged', data: saved };
    },
  },
  {
    method: 'get',
    path: '/meals',
    summary:
      'A client’s meal entries of from..to (YYYY-MM-DD, India time; the last 7 days by default, at most 62 days), oldest first, with photos (signed links), the dietitian’s mark and the comments. A client reads their own (clientId may be left out); a dietitian names the client',
    tag: 'Meal journal',
    auth: 'required',
    clientData: true,
    request: {
      query: z.object({ clientId: z.string().optional(), from: z.string().optional(), to: z.string().optional() }),
    },
    response: z.array(mealEntry),
    responseExtra: { clientId: z.number().int(), from: z.string(), to: z.string() },
    handle: async ({ caller, query }) => {
      const list = await caller.journal.list(untrusted(query));
      return {
        message: list.entries.length ? 'Meals loaded' : 'No meals logged in these days',
        data: list.entries,
        extra: { clientId: list.clientId, from: list.from, to: list.to },
      };
    },
  },
  {
    method: 'patch',
    path: '/meals/:id',
    summary:
      'Edit an entry of the last 7 days (its client only): send only what changes; attachmentIds, when sent, is the whole new list of photos (photos left out are deleted), and items the whole new list of foods',
    tag: 'Meal journal',
    auth: 'required',
    request: { params: idParam, body: updateMealFields },
    response: mealEntry,
    errors: { 403: NOT_YOURS, 404: 'No such entry.', 409: 'The entry is more than 7 days old and can no longer be changed.' },
    handle: async ({ caller, params, body }) => ({
      message: 'Entry updated',
      data: await caller.journal.update(untrusted(withBody(body, { id: pathId(params) }))),
    }),
  },
  {
    method: 'delete',
    path: '/meals/:id',
    summary: 'Delete an entry of the last 7 days (its client only), with its photos and comments',
    tag: 'Meal journal',
    auth: 'required',
    request: { params: idParam },
    response: z.object({ id: z.number().int() }),
    errors: { 403: NOT_YOURS, 404: 'No such entry.', 409: 'The entry is more than 7 days old and can no longer be changed.' },
    handle: async ({ caller, params }) => {
      const done = await caller.journal.remove(untrusted({ id: pathId(params) }));
      return { message: done.message, data: { id: done.id } };
    },
  },
  {
    method: 'put',
    path: '/meals/:id/items',
    summary:
      'A dietitian’s estimate of a client’s meal (its photo, its words): items, the foods it shows [{ foodId, quantity, unit }] (at most 20; an empty list takes them away), replacing the foods it listed, of any day. The client’s journal shows them at once. Answers the entry with each item’s grams and nutrients and its totals',
    tag: 'Meal journal',
    auth: 'required',
    request: { params: idParam, body: estimateFields },
    response: mealEntry,
    errors: {
      403: 'Only a dietitian estimates a meal’s foods (a client edits their own meal with PATCH /api/meals/{id}).',
      404: 'No such entry.',
      422: 'A food is not in the food library, or has no such measure (the message names it and the measures it has).',
    },
    handle: async ({ caller, params, body }) => ({
      message: 'Foods saved',
      data: await caller.admin.journal.estimate(untrusted(withBody(body, { entryId: pathId(params) }))),
    }),
  },
  {
    method: 'post',
    path: '/meals/:id/comments',
    summary:
      'Comment on an entry: its client or a dietitian; text up to 2,000 characters, optional clientCommentId (a UUID; the same one again answers 200 with the first comment). A dietitian’s comment notifies the client (naming the event only) and shows live on their journal',
    tag: 'Meal journal',
    auth: 'required',
    request: { params: idParam, body: commentFields },
    response: mealComment.extend({ repeated: z.boolean() }),
    successStatus: 201,
    repeatAnswer: 'The clientCommentId was sent before: the first comment, with repeated: true',
    errors: { 403: NOT_YOURS, 404: 'No such entry.', 409: 'The clientCommentId was used for a comment on another entry.', 429: LIMITED },
    handle: async ({ caller, params, body }) => {
      const saved = await caller.journal.comment(untrusted(withBody(body, { entryId: pathId(params) })));
      return saved.repeated
        ? { status: 200, message: 'This comment was sent already.', data: saved }
        : { status: 201, message: 'Comment added', data: saved };
    },
  },
  {
    method: 'get',
    path: '/water',
    summary: 'Glasses of water on a day (date YYYY-MM-DD, India time; today by default). A dietitian names the client with clientId',
    tag: 'Meal journal',
    auth: 'required',
    clientData: true,
    request: { query: z.object({ date: z.string().optional(), clientId: z.string().optional() }) },
    response: waterDay,
    handle: async ({ caller, query }) => ({ message: 'Water loaded', data: await caller.journal.water(untrusted(query)) }),
  },
  {
    method: 'put',
    path: '/water',
    summary: 'Set the glasses of water of a day (clients; today or one of the 6 days before; 0–30 glasses)',
    tag: 'Meal journal',
    auth: 'required',
    request: { body: waterInput },
    response: waterDay,
    errors: { 403: 'Only the client counts their water.' },
    handle: async ({ caller, body }) => ({ message: 'Water saved', data: await caller.journal.setWater(untrusted(body)) }),
  },
]);

import { z } from 'zod';
import { attachmentView } from '../attachments/schema.js';
import { idempotencyKey, idField, INT32_MAX, plainText, requiredText, tokenText } from '../validation.js';

/** Messages between a client and the care team. zod only: the client's screens import this file. */

export const MESSAGE_TEXT_MAX = 4000;
export const MESSAGE_PAGE_MAX = 100;
export const MESSAGE_PAGE_DEFAULT = 50;
/** Attachments per message (the attachments side validates each file). */
export const MESSAGE_ATTACHMENTS_MAX = 5;
export const CONVERSATION_PAGE_DEFAULT = 25;
export const CONVERSATION_PAGE_MAX = 100;
export const SAVED_REPLY_TITLE_MAX = 80;
export const SAVED_REPLY_BODY_MAX = MESSAGE_TEXT_MAX;
export const INBOX_SEARCH_MAX = 100;
export const CONVERSATION_MISSING = 'That conversation does not exist.';

const TEXT_REQUIRED = 'Write a message';
export const messageText = z
  .string({ error: TEXT_REQUIRED })
  .trim()
  .min(1, TEXT_REQUIRED)
  .max(MESSAGE_TEXT_MAX, `A message must be at most ${MESSAGE_TEXT_MAX.toLocaleString('en-IN')} characters`)
  .pipe(plainText('The message', { multiline: true }));

/** A message's number in its conversation (1, 2, 3...); 0 means "before the first". */
export const seqField = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be 0 or more`)
    .max(INT32_MAX, `${label} is too large`);

const limitMessage = `limit must be a whole number from 1 to ${MESSAGE_PAGE_MAX}`;
const pageLimit = (max: number, fallback: number) =>
  z.coerce.number({ error: limitMessage }).int(limitMessage).min(1, limitMessage).max(max, limitMessage).default(fallback);

export const conversationIdInput = z.object({ conversationId: idField('conversationId') });

/** Files of an open conversation whose signed links are to be made again (links last 15 minutes). */
export const CONVERSATION_FILES_MAX = 100;
export const conversationFilesInput = conversationIdInput.extend({
  attachmentIds: z
    .array(z.uuid({ error: 'Each attachment id is a file id of this conversation (a UUID)' }), {
      error: 'attachmentIds must be a list of file ids',
    })
    .min(1, 'Name at least one file')
    .max(CONVERSATION_FILES_MAX, `At most ${CONVERSATION_FILES_MAX} files at a time`),
});

/** messages.events: tRPC fills `lastEventId` (the last seq received) in by itself when it reconnects. */
export const conversationEventsInput = conversationIdInput.extend({
  lastEventId: tokenText('lastEventId', 20, 'lastEventId is not a message seq').nullish(),
});

/** A message's text may be empty when it carries files (a photo of a meal says enough). */
const messageBody = z
  .string({ error: 'The message must be text' })
  .trim()
  .max(MESSAGE_TEXT_MAX, `A message must be at most ${MESSAGE_TEXT_MAX.toLocaleString('en-IN')} characters`)
  .pipe(plainText('The message', { multiline: true }))
  .default('');

/** The fields of a send (the REST body documents these; the procedure also requires text or a file). */
export const sendMessageFields = z.object({
  conversationId: idField('conversationId'),
  /** Up to 4,000 characters; may be left out when attachmentIds carries at least one file. */
  text: messageBody,
  /** The sender's own key, made once per message and sent again on a retry: a repeat returns the first message. */
  clientMessageId: idempotencyKey('clientMessageId'),
  /** Uploaded attachments (POST /api/attachments) to send with the message, at most 5. */
  attachmentIds: z
    .array(z.uuid({ error: 'Each attachment id is an id POST /api/attachments answered (a UUID)' }), {
      error: 'attachmentIds must be a list of the ids POST /api/attachments answered',
    })
    .max(MESSAGE_ATTACHMENTS_MAX, `A message can carry at most ${MESSAGE_ATTACHMENTS_MAX} attachments`)
    .optional(),
});
export const sendMessageInput = sendMessageFields.refine((m) => m.text.length > 0 || (m.attachmentIds?.length ?? 0) > 0, {
  message: TEXT_REQUIRED,
  path: ['text'],
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

export const listMessagesInput = z
  .object({
    conversationId: idField('conversationId'),
    /** Messages after this seq (catching up); without it, the latest page. */
    after: seqField('after').optional(),
    /** Messages before this seq (scrolling up). */
    before: seqField('before').optional(),
    limit: pageLimit(MESSAGE_PAGE_MAX, MESSAGE_PAGE_DEFAULT),
  })
  .refine((v) => v.after === undefined || v.before === undefined || v.after < v.before, {
    message: 'after must be smaller than before',
    path: ['after'],
  });
export type ListMessagesInput = z.infer<typeof listMessagesInput>;

export const markReadInput = z.object({
  conversationId: idField('conversationId'),
  /** The last message read (its seq); a seq past the last message counts as the last. */
  seq: seqField('seq'),
});

export const listConversationsInput = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(0, 'page must be 0 or more (pages start at 0)')
    .max(100_000, 'page must be at most 100000')
    .default(0),
  pageSize: pageLimit(CONVERSATION_PAGE_MAX, CONVERSATION_PAGE_DEFAULT),
});

export const SENDER_ROLES = ['client', 'dietitian', 'system'] as const;
export const message = z.object({
  id: z.number().int(),
  seq: z.number().int(),
  conversationId: z.number().int(),
  clientMessageId: z.string().nullable(),
  /** Who sent it; an automatic reply (office hours) is from the care team, with no id. */
  sender: z.object({ id: z.number().int().nullable(), name: z.string(), role: z.enum(SENDER_ROLES) }),
  text: z.string(),
  attachments: z.array(attachmentView),
  sentAt: z.date(),
});
export type Message = z.infer<typeof message>;

/** Sending answers the message, and whether it was a repeat of an earlier send with the same clientMessageId. */
export const sentMessage = message.extend({ repeated: z.boolean() });
export type SentMessage = z.infer<typeof sentMessage>;

export const messagePage = z.object({
  conversationId: z.number().int(),
  messages: z.array(message),
  /** The conversation's latest seq: the viewer has everything when the last message has it. */
  lastSeq: z.number().int(),
  /** How far the other side has read (their last read seq): "Seen" goes under the viewer's messages up to it. */
  seenSeq: z.number().int(),
  /** How far the viewer has read. */
  readSeq: z.number().int(),
});

export const readState = z.object({
  conversationId: z.number().int(),
  lastReadSeq: z.number().int(),
  unread: z.number().int(),
});

export const conversationSummary = z.object({
  id: z.number().int(),
  /** firstName: for a saved reply's {first name}. */
  client: z.object({ id: z.number().int(), name: z.string(), firstName: z.string(), active: z.boolean() }),
  primaryDietitian: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  lastSeq: z.number().int(),
  /** Messages the viewer has not read. */
  unread: z.number().int(),
  /** How far the other side has read. */
  seenSeq: z.number().int(),
  lastMessage: z
    .object({
      seq: z.number().int(),
      text: z.string(),
      senderRole: z.enum(SENDER_ROLES),
      sentAt: z.date(),
    })
    .nullable(),
  /** The client spoke last: the care team owes an answer. */
  waitingForUs: z.boolean(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

export const conversationList = z.object({
  items: z.array(conversationSummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Unread messages over every conversation the viewer takes part in (the navigation badge). */
  totalUnread: z.number().int(),
});

export const unreadCount = z.object({ totalUnread: z.number().int(), conversations: z.number().int() });

/* The console's inbox. */

export const INBOX_FILTERS = {
  unread: 'Unread',
  waiting: 'Waiting for us',
  all: 'All',
} as const;
export type InboxFilter = keyof typeof INBOX_FILTERS;

export const inboxInput = listConversationsInput.extend({
  filter: z
    .enum(Object.keys(INBOX_FILTERS) as [InboxFilter, ...InboxFilter[]], { error: 'filter must be unread, waiting or all' })
    .default('all'),
  /** Client name or words of a message. */
  q: z
    .string({ error: 'Search must be text' })
    .trim()
    .max(INBOX_SEARCH_MAX, `Search must be at most ${INBOX_SEARCH_MAX} characters`)
    .pipe(plainText('Search'))
    .optional(),
});
export type InboxInput = z.infer<typeof inboxInput>;

export const inboxRow = conversationSummary.extend({
  /** The newest message that matched the search's words (none without a search, or when only the name matched). */
  match: z.object({ seq: z.number().int(), text: z.string() }).nullable(),
});

export const setPrimaryInput = z.object({
  conversationId: idField('conversationId'),
  /** The dietitian notified first; null for none (every dietitian is). */
  dietitianId: idField('dietitianId').nullable(),
});

export const openClientInput = z.object({ clientId: idField('clientId') });

export const savedReplyInput = z.object({
  title: requiredText('Title is required', SAVED_REPLY_TITLE_MAX),
  body: requiredText('Text is required', SAVED_REPLY_BODY_MAX, { multiline: true }),
});
export const updateSavedReplyInput = savedReplyInput.extend({ id: idField('id') });
export const savedReply = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  updatedAt: z.date(),
});

/** ISO weekdays: 1 Monday ... 7 Sunday. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const TIME_MESSAGE = 'Use a 24-hour time such as 09:30';
const timeOfDay = z
  .string({ error: TIME_MESSAGE })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_MESSAGE);
export const officeHours = z
  .object({
    /** The days the office is open, 1 (Monday) to 7 (Sunday); empty or null: always open (no automatic replies). */
    days: z
      .array(
        z
          .number()
          .int('days must be whole numbers')
          .min(1, 'days go from 1 (Monday) to 7 (Sunday)')
          .max(7, 'days go from 1 (Monday) to 7 (Sunday)'),
      )
      .max(7, 'There are 7 days in a week')
      .nullable(),
    /** Opening and closing times in India time (Asia/Kolkata), 24-hour. */
    opens: timeOfDay,
    closes: timeOfDay,
  })
  .refine((h) => h.opens < h.closes, { message: 'Closing time must be after opening time', path: ['closes'] });
export type OfficeHours = z.infer<typeof officeHours>;

/** The side panel beside an open conversation in the console. */
export const conversationPanel = z.object({
  conversation: conversationSummary,
  latestCheckIn: z
    .object({
      id: z.number().int(),
      date: z.string(),
      weight: z.number(),
      adherence: z.number().int(),
      notes: z.string().nullable(),
      reply: z.string().nullable(),
      createdAt: z.date(),
    })
    .nullable(),
  nextCheckIn: z.object({ state: z.string(), dueDate: z.string().nullable() }),
  /** Oldest first. */
  weights: z.array(z.object({ date: z.string(), weight: z.number() })),
  activePlan: z.object({ id: z.number().int(), title: z.string(), from: z.string(), to: z.string() }).nullable(),
  subscription: z
    .object({ id: z.number().int(), planName: z.string(), startDate: z.string(), endDate: z.string(), status: z.string() })
    .nullable(),
});

/**
 * A message as message_send stores it and its NOTIFY carries it (sql/message_send.sql): the columns of the
 * row, `sent_at` as JSON writes a timestamp. Every instance makes the subscribers' view of it (toMessage).
 */
export type NotifiedMessageRow = {
  id: number;
  conversation_id: number;
  seq: number;
  sender_id: number | null;
  sender_role: (typeof SENDER_ROLES)[number];
  client_message_id: string | null;
  text: string;
  sent_at: string;
  sender_first: string | null;
  sender_last: string | null;
};

/**
 * What the `messages` NOTIFY channel carries: ids and numbers, and for a new message without files its stored
 * row (`row`, when it fits in a NOTIFY), so that no instance reads it again to show it.
 */
export type MessageSignal =
  | { kind: 'message'; conversationId: number; seq: number; row?: NotifiedMessageRow }
  | { kind: 'read'; conversationId: number; userId: number; seq: number };

/**
 * messages.events: 'ready' once caught up; then each new message (as `list`
 * returns it), the other side's read receipts ("Seen") and typing. Tracked by
 * seq: a reconnect replays the messages missed, in order, then the current
 * receipt; 'resync' when too many were missed (the client reloads).
 */
export type ConversationEvent =
  | { kind: 'ready' }
  | { kind: 'resync' }
  | { kind: 'message'; message: Message }
  | { kind: 'read'; seq: number }
  | { kind: 'typing'; userId: number; name: string };

/**
 * admin.messages.inboxEvents: 'ready', then a signal per change to any
 * conversation (a message, a read receipt), so the inbox and the unread badge
 * reload. Not resumable: a reconnecting console reloads on 'ready'.
 */
export type InboxEvent = { kind: 'ready' } | { kind: 'changed'; conversationId: number; lastSeq: number | null };

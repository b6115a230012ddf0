import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import {
  conversationSummary,
  listConversationsInput,
  markReadInput,
  message,
  readState,
  sendMessageFields,
  sentMessage,
} from './schema.js';

/** The path names the conversation; the procedures take it as conversationId. */
const idParam = z.object({ id: z.string() });
const withId = (params: Record<string, string>, rest: unknown) => ({
  ...(rest && typeof rest === 'object' ? rest : {}),
  conversationId: /^\d+$/.test(params.id ?? '') ? Number(params.id) : params.id,
});

export const messageRoutes = defineRoutes([
  {
    method: 'get',
    path: '/conversations',
    summary:
      'Conversations with the care team. A client gets a list holding their one conversation (made on first use); a dietitian gets every conversation, newest first. Each with the viewer’s unread count, the last message and the client’s name; paged (page from 0, pageSize up to 100), the total and every unread message counted beside data',
    tag: 'Messages',
    auth: 'required',
    request: { query: listConversationsInput },
    response: z.array(conversationSummary),
    responseExtra: { total: z.number().int(), page: z.number().int(), pageSize: z.number().int(), totalUnread: z.number().int() },
    handle: async ({ caller, query }) => {
      const list = await caller.messages.conversations(untrusted(query));
      return {
        message: 'Conversations loaded',
        data: list.items,
        extra: { total: list.total, page: list.page, pageSize: list.pageSize, totalUnread: list.totalUnread },
      };
    },
  },
  {
    method: 'get',
    path: '/conversations/:id/messages',
    summary:
      'Messages of a conversation, ascending by seq: after=<seq> those after it (catching up), before=<seq> the latest before it (scrolling up), neither the latest; limit 1–100 (50). Beside data: lastSeq, the other side’s last read seq (seenSeq) and the viewer’s (readSeq). A dietitian opening a conversation is recorded in the audit log',
    tag: 'Messages',
    auth: 'required',
    request: {
      params: idParam,
      query: z.object({ after: z.string().optional(), before: z.string().optional(), limit: z.string().optional() }),
    },
    response: z.array(message),
    responseExtra: { lastSeq: z.number().int(), seenSeq: z.number().int(), readSeq: z.number().int() },
    errors: { 403: 'The conversation is another client’s.', 404: 'No such conversation.' },
    handle: async ({ caller, params, query }) => {
      const page = await caller.messages.list(untrusted(withId(params, query)));
      return {
        message: page.messages.length ? 'Messages loaded' : 'No messages',
        data: page.messages,
        extra: { lastSeq: page.lastSeq, seenSeq: page.seenSeq, readSeq: page.readSeq },
      };
    },
  },
  {
    method: 'post',
    path: '/conversations/:id/messages',
    summary:
      'Send a message: text up to 4,000 characters and a clientMessageId (a UUID made once per message). 201 with the message; the same clientMessageId again answers 200 with the first message (repeated: true); attachmentIds (at most 5, from POST /api/attachments) go with it, and the text may then be empty',
    tag: 'Messages',
    auth: 'required',
    request: { params: idParam, body: sendMessageFields.omit({ conversationId: true }) },
    response: sentMessage,
    successStatus: 201,
    repeatAnswer: 'The clientMessageId was sent before: the first message, with repeated: true; nothing new is stored',
    errors: {
      403: 'The conversation is another client’s, or the client’s account is deactivated.',
      404: 'No such conversation.',
      409: 'The clientMessageId was used for a message in another conversation.',
      429: 'Too many messages from this sender in a short time (RATE_LIMIT_MESSAGES; see Retry-After)',
    },
    handle: async ({ caller, params, body }) => {
      const sent = await caller.messages.send(untrusted(withId(params, body)));
      return sent.repeated
        ? { status: 200, message: 'This message was sent already.', data: sent }
        : { status: 201, message: 'Message sent', data: sent };
    },
  },
  {
    method: 'post',
    path: '/conversations/:id/read',
    summary:
      'Mark the conversation read up to seq (a seq past the last message counts as the last; never moves backwards); answers the viewer’s unread count',
    tag: 'Messages',
    auth: 'required',
    request: { params: idParam, body: markReadInput.omit({ conversationId: true }) },
    response: readState,
    errors: { 403: 'The conversation is another client’s.', 404: 'No such conversation.' },
    handle: async ({ caller, params, body }) => ({
      message: 'Marked as read',
      data: await caller.messages.read(untrusted(withId(params, body))),
    }),
  },
]);

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import type { Message } from '../../../server/messages/schema';
import { connection } from '../../lib/connection';
import { isOutage } from '../../lib/outage';
import { errorMessage } from '../../lib/errors';
import { newRequestKey } from '../../lib/request-key';
import { type FileView, firstExpiry, RENEW_AHEAD_MS, RENEW_AT_MOST_EVERY_MS, withRenewedFiles } from './fresh-links';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { loadPending, type PendingFile, type PendingMessage, savePending } from './pending-messages';

/** Messages loaded per page when scrolling up. */
export const OLDER_PAGE = 30;

type State = {
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  /** Stored messages by seq (each exactly once, however it arrived: page, send answer or live event). */
  bySeq: ReadonlyMap<number, Message>;
  /** The smallest seq loaded; 1 (or nothing) means the start of the conversation is shown. */
  oldestSeq: number | null;
  loadingOlder: boolean;
  /** How far the other side has read ("Seen" under the viewer's messages up to it). */
  seenSeq: number;
  /** How far the viewer has told the server they read. */
  readSeq: number;
  pending: readonly PendingMessage[];
};

type Action =
  | { type: 'loaded'; messages: readonly Message[]; seenSeq: number; readSeq: number; replace: boolean }
  | { type: 'older'; messages: readonly Message[] }
  | { type: 'loading-older'; on: boolean }
  | { type: 'failed'; error: unknown }
  | { type: 'received'; message: Message }
  | { type: 'seen'; seq: number }
  | { type: 'read'; seq: number }
  | { type: 'pending'; pending: readonly PendingMessage[] }
  | { type: 'files'; views: readonly FileView[] };

function withMessages(bySeq: ReadonlyMap<number, Message>, messages: readonly Message[]): ReadonlyMap<number, Message> {
  if (messages.length === 0) return bySeq;
  const next = new Map(bySeq);
  for (const m of messages) next.set(m.seq, m);
  return next;
}

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'loaded': {
      const bySeq = withMessages(action.replace ? new Map() : state.bySeq, action.messages);
      const seqs = [...bySeq.keys()];
      return {
        ...state,
        status: 'ready',
        error: null,
        bySeq,
        oldestSeq: seqs.length ? Math.min(...seqs) : null,
        seenSeq: Math.max(state.seenSeq, action.seenSeq),
        readSeq: Math.max(state.readSeq, action.readSeq),
      };
    }
    case 'older': {
      const bySeq = withMessages(state.bySeq, action.messages);
      const seqs = [...bySeq.keys()];
      return { ...state, bySeq, loadingOlder: false, oldestSeq: seqs.length ? Math.min(...seqs) : null };
    }
    case 'loading-older':
      return { ...state, loadingOlder: action.on };
    case 'failed':
      return state.status === 'ready' ? state : { ...state, status: 'error', error: action.error };
    case 'received': {
      const bySeq = withMessages(state.bySeq, [action.message]);
      const pending = state.pending.filter((p) => p.clientMessageId !== action.message.clientMessageId);
      return { ...state, bySeq, pending: pending.length === state.pending.length ? state.pending : pending };
    }
    case 'seen':
      return action.seq > state.seenSeq ? { ...state, seenSeq: action.seq } : state;
    case 'read':
      return action.seq > state.readSeq ? { ...state, readSeq: action.seq } : state;
    case 'pending':
      return { ...state, pending: action.pending };
    case 'files': {
      const bySeq = withRenewedFiles(state.bySeq, action.views);
      return bySeq === state.bySeq ? state : { ...state, bySeq };
    }
  }
}

const initial = (pending: readonly PendingMessage[]): State => ({
  status: 'loading',
  error: null,
  bySeq: new Map(),
  oldestSeq: null,
  loadingOlder: false,
  seenSeq: 0,
  readSeq: 0,
  pending,
});

export type Conversation = ReturnType<typeof useConversation>;

/**
 * One conversation as the chat screens show it: the latest page, older pages
 * on demand, and the viewer's unsent messages. A message is shown at once as
 * "sending", then as the stored message ("sent", "seen") once the server
 * acknowledges it; a message that could not reach the server stays, is sent
 * again (same `clientMessageId`, so never twice) when the connection returns,
 * and survives a reload (pending-messages.ts); one the server refused says
 * why, with Retry.
 * Live delivery (`receive`, `seen`, `catchUp`) is fed by the live stream.
 */
export function useConversation(conversationId: number, viewerId: number, options: { onRead?: () => void } = {}) {
  const onRead = useRef(options.onRead);
  onRead.current = options.onRead;
  const client = useTRPCClient();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The latest page is also kept in the query cache, which the dashboard keeps on the device: offline, the
  // conversation opens with what it showed last, and messages written meanwhile wait to send (decision 116).
  const pageKey = useMemo(() => trpc.messages.list.queryKey({ conversationId }), [trpc, conversationId]);
  const [state, dispatch] = useReducer(reducer, undefined, () => initial(loadPending(viewerId, conversationId)));
  const stateRef = useRef(state);
  stateRef.current = state;
  const inFlight = useRef(new Set<string>());

  const setPending = useCallback(
    (update: (list: readonly PendingMessage[]) => readonly PendingMessage[]) => {
      const next = update(stateRef.current.pending);
      stateRef.current = { ...stateRef.current, pending: next };
      savePending(viewerId, conversationId, next);
      dispatch({ type: 'pending', pending: next });
    },
    [viewerId, conversationId],
  );

  const lastSeq = () => {
    const seqs = [...stateRef.current.bySeq.keys()];
    return seqs.length ? Math.max(...seqs) : 0;
  };

  /** Loads what is newer than what is shown (everything after the last seq), page by page. */
  const catchUp = useCallback(async () => {
    try {
      if (stateRef.current.status !== 'ready') {
        const page = await client.messages.list.query({ conversationId }).catch((error: unknown) => {
          const kept = isOutage(error) ? queryClient.getQueryData(pageKey) : undefined;
          if (!kept) throw error;
          return kept;
        });
        queryClient.setQueryData(pageKey, page);
        dispatch({ type: 'loaded', messages: page.messages, seenSeq: page.seenSeq, readSeq: page.readSeq, replace: true });
        return;
      }
      for (;;) {
        const after = lastSeq();
        const page = await client.messages.list.query({ conversationId, after, limit: 100 });
        dispatch({ type: 'loaded', messages: page.messages, seenSeq: page.seenSeq, readSeq: page.readSeq, replace: false });
        if (page.messages.length < 100) return;
      }
    } catch (error) {
      dispatch({ type: 'failed', error });
    }
  }, [client, conversationId, queryClient, pageKey]);

  const loadOlder = useCallback(async () => {
    const { oldestSeq, loadingOlder } = stateRef.current;
    if (loadingOlder || oldestSeq === null || oldestSeq <= 1) return;
    dispatch({ type: 'loading-older', on: true });
    try {
      const page = await client.messages.list.query({ conversationId, before: oldestSeq, limit: OLDER_PAGE });
      dispatch({ type: 'older', messages: page.messages });
    } catch {
      dispatch({ type: 'loading-older', on: false });
    }
  }, [client, conversationId]);

  const attempt = useCallback(
    async (clientMessageId: string) => {
      const item = stateRef.current.pending.find((p) => p.clientMessageId === clientMessageId);
      if (!item || inFlight.current.has(clientMessageId)) return;
      inFlight.current.add(clientMessageId);
      setPending((list) => list.map((p) => (p.clientMessageId === clientMessageId ? { ...p, state: 'sending', error: undefined } : p)));
      try {
        const attachmentIds = item.attachments?.map((a) => a.id);
        const sent = await client.messages.send.mutate({ conversationId, text: item.text, clientMessageId, attachmentIds });
        setPending((list) => list.filter((p) => p.clientMessageId !== clientMessageId));
        dispatch({ type: 'received', message: sent });
      } catch (error) {
        // Not reached: waits and goes again by itself when the connection returns. Refused: says why, with Retry.
        const outage = isOutage(error);
        if (outage) connection.reportOutage();
        setPending((list) =>
          list.map((p) =>
            p.clientMessageId === clientMessageId
              ? outage
                ? { ...p, state: 'waiting', error: undefined }
                : { ...p, state: 'failed', error: errorMessage(error) }
              : p,
          ),
        );
      } finally {
        inFlight.current.delete(clientMessageId);
      }
    },
    [client, conversationId, setPending],
  );

  const send = useCallback(
    (text: string, attachments: readonly PendingFile[] = []) => {
      const pending: PendingMessage = {
        clientMessageId: newRequestKey(),
        conversationId,
        text,
        writtenAt: new Date().toISOString(),
        state: 'sending',
        ...(attachments.length > 0
          ? { attachments: attachments.map(({ id, name, contentType, thumbnailUrl }) => ({ id, name, contentType, thumbnailUrl })) }
          : {}),
      };
      setPending((list) => [...list, pending]);
      void attempt(pending.clientMessageId);
    },
    [conversationId, attempt, setPending],
  );

  const retryAll = useCallback(() => {
    for (const p of stateRef.current.pending) {
      if (p.state === 'sending' || p.state === 'waiting' || p.error?.startsWith('No connection')) void attempt(p.clientMessageId);
    }
  }, [attempt]);

  const discard = useCallback(
    (clientMessageId: string) => setPending((list) => list.filter((p) => p.clientMessageId !== clientMessageId)),
    [setPending],
  );

  /** Tells the server how far the viewer has read (only forward). */
  const markRead = useCallback(async () => {
    const seq = lastSeq();
    if (seq <= stateRef.current.readSeq) return;
    dispatch({ type: 'read', seq });
    try {
      await client.messages.read.mutate({ conversationId, seq });
      onRead.current?.();
    } catch {
      // The next view tries again.
    }
  }, [client, conversationId]);

  // First load, then whatever was left unsent by an earlier page goes again.
  useEffect(() => {
    void catchUp().then(retryAll);
  }, [catchUp, retryAll]);

  // Back online (the browser says so, or the server answers again): send what waits and load what was missed.
  useEffect(() => {
    const again = () => {
      retryAll();
      void catchUp();
    };
    window.addEventListener('online', again);
    const stop = connection.onRecovered(again);
    return () => {
      window.removeEventListener('online', again);
      stop();
    };
  }, [retryAll, catchUp]);

  const messages = useMemo(() => [...state.bySeq.values()].sort((a, b) => a.seq - b.seq), [state.bySeq]);

  // Signed links of files last 15 minutes (fresh-links.ts): renewed for the files shown, once at a time.
  const renewing = useRef<Promise<Map<string, FileView>> | null>(null);
  const lastRenewed = useRef(0);
  const renewFiles = useCallback((): Promise<Map<string, FileView>> => {
    if (renewing.current) return renewing.current;
    const ids = [...new Set([...stateRef.current.bySeq.values()].flatMap((m) => m.attachments.map((a) => a.id)))];
    const run = (async () => {
      const renewed = new Map<string, FileView>();
      try {
        for (let i = 0; i < ids.length; i += 100) {
          const views = await client.messages.files.query({ conversationId, attachmentIds: ids.slice(i, i + 100) });
          for (const v of views) renewed.set(v.id, v);
          dispatch({ type: 'files', views });
        }
        lastRenewed.current = Date.now();
      } catch {
        // Offline or refused: the next expiry, a photo that fails to load or a click asks again.
      }
      return renewed;
    })().finally(() => {
      renewing.current = null;
    });
    renewing.current = run;
    return run;
  }, [client, conversationId]);
  const expiry = useMemo(() => firstExpiry(state.bySeq.values()), [state.bySeq]);
  useEffect(() => {
    if (expiry === null) return;
    const wait = Math.max(expiry - RENEW_AHEAD_MS - Date.now(), lastRenewed.current + RENEW_AT_MOST_EVERY_MS - Date.now(), 0);
    const timer = setTimeout(() => void renewFiles(), wait);
    return () => clearTimeout(timer);
  }, [expiry, renewFiles]);
  /** A photo failed to load (its link may have expired while the device slept): renewed, unless it just was. */
  const fileFailed = useCallback(() => {
    if (Date.now() - lastRenewed.current >= RENEW_AT_MOST_EVERY_MS) void renewFiles();
  }, [renewFiles]);
  // The kept page follows what the thread shows (its latest messages), so the next offline opening is current.
  useEffect(() => {
    if (state.status !== 'ready') return;
    queryClient.setQueryData(pageKey, (kept) =>
      kept ? { ...kept, messages: messages.slice(-OLDER_PAGE), seenSeq: state.seenSeq, readSeq: state.readSeq } : kept,
    );
  }, [queryClient, pageKey, messages, state.status, state.seenSeq, state.readSeq]);

  return {
    conversationId,
    status: state.status,
    error: state.error,
    messages,
    pending: state.pending,
    hasOlder: state.oldestSeq !== null && state.oldestSeq > 1,
    loadingOlder: state.loadingOlder,
    seenSeq: state.seenSeq,
    readSeq: state.readSeq,
    send,
    retry: attempt,
    discard,
    loadOlder,
    markRead,
    catchUp,
    /** Fresh signed links for the files shown (resolves with them by id). */
    renewFiles,
    fileFailed,
    /** A message from the live stream. */
    receive: (message: Message) => dispatch({ type: 'received', message }),
    /** The other side read up to `seq` (live). */
    seen: (seq: number) => dispatch({ type: 'seen', seq }),
  };
}

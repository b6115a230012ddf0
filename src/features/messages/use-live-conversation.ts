import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConversationEvent } from '../../../server/messages/schema';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { type LiveState, useLiveSubscription } from '../../lib/use-live-subscription';
import type { Conversation } from './use-conversation';

/** A typing notice is sent at most this often, and shown at most this long after the last one (the server's rule too). */
export const TYPING_EVERY_MS = 3000;
export const TYPING_SHOWN_MS = 6000;

/**
 * Keeps an open conversation live (messages.events): new messages, the other
 * side's "Seen" and "… is typing" (cleared after 6 s, or when their message
 * arrives). A fresh subscription, or one told it missed too much, loads what
 * is newer than what is shown. `onTyping` tells the other side the viewer is
 * typing, at most once every 3 s.
 */
export function useLiveConversation(c: Conversation, options: { onMessage?: () => void } = {}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const [typing, setTyping] = useState<{ userId: number; name: string } | null>(null);
  const clearTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { conversationId, receive, seen, catchUp } = c;
  const onMessage = useRef(options.onMessage);
  onMessage.current = options.onMessage;

  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const live: LiveState = useLiveSubscription({
    key: conversationId,
    resumable: true,
    options: (lastEventId, handlers) => trpc.messages.events.subscriptionOptions({ conversationId, lastEventId }, handlers),
    onReady: (fresh) => {
      if (fresh) void catchUp();
    },
    onEvent: (event: ConversationEvent) => {
      if (event.kind === 'message') {
        receive(event.message);
        setTyping((t) => (t && t.userId === event.message.sender.id ? null : t));
        onMessage.current?.();
      } else if (event.kind === 'read') {
        seen(event.seq);
      } else if (event.kind === 'typing') {
        setTyping({ userId: event.userId, name: event.name });
        clearTimeout(clearTimer.current);
        clearTimer.current = setTimeout(() => setTyping(null), TYPING_SHOWN_MS);
      } else if (event.kind === 'resync') {
        void catchUp();
      }
    },
  });

  const lastTyping = useRef(0);
  const onTyping = useCallback(() => {
    const now = Date.now();
    if (now - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = now;
    client.messages.typing.mutate({ conversationId }).catch(() => {});
  }, [client, conversationId]);

  return { live, activity: typing ? `${typing.name} is typing…` : null, onTyping };
}

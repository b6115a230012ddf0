import { type CSSProperties, type Ref, useCallback, useRef, useState } from 'react';
import type { Message } from '../../../server/messages/schema';
import { LoadError, Loading } from '../../components/ui/States';
import { isOutage } from '../../lib/outage';
import { ChatThread } from './ChatThread';
import { Composer } from './Composer';
import type { Conversation } from './use-conversation';
import { TAB_BAR_ASIDE_CSS, useTabBarAsideWhile, useToastsAbove } from './use-fill-viewport';

export type ConversationViewProps = {
  conversation: Conversation;
  /** The viewer's side of the conversation sits on the right. */
  isOwn: (message: Message) => boolean;
  emptyText: string;
  activity?: string | null;
  onTyping?: () => void;
  composerDisabledReason?: string | null;
  insert?: { text: string; nonce: number } | null;
  className?: string;
  style?: CSSProperties;
  ref?: Ref<HTMLElement>;
};

/** A conversation's thread and composer in one card that fills the height it is given. */
export function ConversationView({
  conversation: c,
  isOwn,
  emptyText,
  activity,
  onTyping,
  composerDisabledReason,
  insert,
  className,
  style,
  ref,
}: ConversationViewProps) {
  const markRead = c.markRead;
  const [composing, setComposing] = useState(false);
  useTabBarAsideWhile(composing);
  const composerBox = useRef<HTMLDivElement>(null);
  useToastsAbove(composerBox);
  const onAtEnd = useCallback(() => void markRead(), [markRead]);
  return (
    <section
      ref={ref}
      style={style}
      className={`flex min-h-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-slate-50 ${className ?? ''}`}
      aria-label="Conversation"
      data-testid="conversation"
      data-status={c.status}
    >
      {c.status === 'loading' ? (
        <div className="flex flex-1 items-center justify-center">
          <Loading label="Loading messages" compact />
        </div>
      ) : c.status === 'error' && !isOutage(c.error) ? (
        <div className="flex flex-1 items-center justify-center p-4">
          <LoadError error={c.error} onRetry={() => void c.catchUp()} compact />
        </div>
      ) : (
        <ChatThread
          messages={c.messages}
          pending={c.pending}
          isOwn={isOwn}
          seenSeq={c.seenSeq}
          hasOlder={c.hasOlder}
          loadingOlder={c.loadingOlder}
          onLoadOlder={() => void c.loadOlder()}
          onRetry={(id) => void c.retry(id)}
          onDiscard={c.discard}
          onAtEnd={onAtEnd}
          activity={activity}
          emptyText={
            c.status === 'error'
              ? 'You are offline and this conversation has not been opened on this device yet. What you write now waits here and goes when you are back online.'
              : emptyText
          }
          files={{ renew: c.renewFiles, failed: c.fileFailed }}
        />
      )}
      <style>{TAB_BAR_ASIDE_CSS}</style>
      <div ref={composerBox}>
        <Composer
          onFocusChange={setComposing}
          onSend={c.send}
          onTyping={onTyping}
          // Offline with nothing kept to show, a message can still be written: it waits on this device.
          disabled={Boolean(composerDisabledReason) || c.status === 'loading'}
          disabledReason={composerDisabledReason ?? undefined}
          insert={insert}
        />
      </div>
    </section>
  );
}

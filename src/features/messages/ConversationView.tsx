import { useCallback } from 'react';
import type { Message } from '../../../server/messages/schema';
import { LoadError, Loading } from '../../components/ui/States';
import { ChatThread } from './ChatThread';
import { Composer } from './Composer';
import type { Conversation } from './use-conversation';

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
}: ConversationViewProps) {
  const markRead = c.markRead;
  const onAtEnd = useCallback(() => void markRead(), [markRead]);
  return (
    <section
      className={`flex min-h-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-slate-50 ${className ?? ''}`}
      aria-label="Conversation"
      data-testid="conversation"
      data-status={c.status}
    >
      {c.status === 'loading' ? (
        <div className="flex flex-1 items-center justify-center">
          <Loading label="Loading messages" compact />
        </div>
      ) : c.status === 'error' ? (
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
          emptyText={emptyText}
          files={{ renew: c.renewFiles, failed: c.fileFailed }}
        />
      )}
      <Composer
        onSend={c.send}
        onTyping={onTyping}
        disabled={Boolean(composerDisabledReason) || c.status !== 'ready'}
        disabledReason={composerDisabledReason ?? undefined}
        insert={insert}
      />
    </section>
  );
}

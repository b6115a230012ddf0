import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Page } from '../../../components/ui/Page';
import { LoadError, Loading } from '../../../components/ui/States';
import { toastError } from '../../../lib/notify';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { useSessionInfo } from '../../../lib/use-session';
import { ConversationView } from '../../messages/ConversationView';
import { useConversation } from '../../messages/use-conversation';
import { useFillViewport } from '../../messages/use-fill-viewport';
import { useLiveConversation } from '../../messages/use-live-conversation';

/** Before it is measured (use-fill-viewport.ts), the chat fills the screen below the title by CSS alone. */
const CHAT_HEIGHT = 'h-[calc(100dvh-11.5rem-var(--app-bottom-bar,0px))] sm:h-[calc(100dvh-14rem)]';

/** The client's conversation with the care team (/dashboard/messages). */
export function MessagesPage() {
  const trpc = useTRPC();
  const viewerId = useSessionInfo()?.id ?? null;
  const list = useQuery(trpc.messages.conversations.queryOptions({}));
  const conversation = list.data?.items[0] ?? null;
  return (
    <Page
      title="Messages"
      lead={<span className="hidden sm:inline">Write to your dietitians. They usually answer within office hours.</span>}
      actions={conversation && <DownloadButton conversationId={conversation.id} />}
      width="max-w-3xl"
    >
      {list.isPending || viewerId === null ? (
        <Loading label="Loading your conversation" />
      ) : list.isError || !conversation ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ClientConversation conversationId={conversation.id} viewerId={viewerId} />
      )}
    </Page>
  );
}

function ClientConversation({ conversationId, viewerId }: { conversationId: number; viewerId: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const conversation = useConversation(conversationId, viewerId, {
    onRead: () => void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() }),
  });
  const live = useLiveConversation(conversation);
  const box = useRef<HTMLElement>(null);
  const height = useFillViewport(box, [conversation.status]);
  return (
    <ConversationView
      ref={box}
      style={height === null ? undefined : { height }}
      conversation={conversation}
      activity={live.activity}
      onTyping={live.onTyping}
      isOwn={(m) => m.sender.role === 'client'}
      emptyText="No messages yet. Ask your dietitians anything about your plan, meals or progress."
      className={CHAT_HEIGHT}
    />
  );
}

/** "Download": the whole conversation with its photos and PDFs, a ZIP made by the server; a quiet control beside the title. */
function DownloadButton({ conversationId }: { conversationId: number }) {
  const client = useTRPCClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const file = await client.messages.export.query({ conversationId });
      const url = URL.createObjectURL(new Blob([file.text], { type: file.contentType }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="ghost"
      size="sm"
      className="min-h-11"
      onClick={() => void download()}
      disabled={busy}
      aria-label={busy ? undefined : 'Download conversation'}
    >
      <Download className="h-4 w-4" aria-hidden="true" />
      {busy ? 'Preparing…' : 'Download'}
    </Button>
  );
}

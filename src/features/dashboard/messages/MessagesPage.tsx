import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { Page } from '../../../components/ui/Page';
import { LoadError, Loading } from '../../../components/ui/States';
import { toastError } from '../../../lib/notify';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import { useSessionInfo } from '../../../lib/use-session';
import { ConversationView } from '../../messages/ConversationView';
import { useConversation } from '../../messages/use-conversation';
import { useLiveConversation } from '../../messages/use-live-conversation';

/** The chat fills the screen below the title, on a phone with its keyboard open as on a desktop. */
const CHAT_HEIGHT = 'h-[calc(100dvh-11.5rem)] min-h-80 sm:h-[calc(100dvh-14rem)]';

/** The client's conversation with the care team (/dashboard/messages). */
export function MessagesPage() {
  const trpc = useTRPC();
  const viewerId = useSessionInfo()?.id ?? null;
  const list = useQuery(trpc.messages.conversations.queryOptions({}));
  const conversation = list.data?.items[0] ?? null;
  return (
    <Page
      title="Messages"
      lead="Write to your dietitians. They usually answer within office hours."
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
  return (
    <ConversationView
      conversation={conversation}
      activity={live.activity}
      onTyping={live.onTyping}
      isOwn={(m) => m.sender.role === 'client'}
      emptyText="No messages yet. Ask your dietitians anything about your plan, meals or progress."
      className={CHAT_HEIGHT}
    />
  );
}

/** "Download conversation": the whole conversation as a text file, made by the server. */
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
    <Button variant="secondary" onClick={() => void download()} disabled={busy}>
      <Download className="h-4 w-4" aria-hidden="true" />
      {busy ? 'Preparing…' : 'Download conversation'}
    </Button>
  );
}

import { useMutation } from '@tanstack/react-query';
import { MessageCircle } from 'lucide-react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/Button';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';

/** "Message" on a client's record: opens the client's conversation in the inbox (made on first use). */
export function MessageClientButton({ clientId }: { clientId: number }) {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const open = useMutation(trpc.admin.messages.forClient.mutationOptions());
  return (
    <Button
      variant="secondary"
      size="sm"
      disabled={open.isPending}
      onClick={() =>
        open.mutate(
          { clientId },
          { onSuccess: ({ conversationId }) => navigate(`/messages/${conversationId}`), onError: (error) => toastError(error) },
        )
      }
    >
      <MessageCircle className="h-4 w-4" aria-hidden="true" />
      Message
    </Button>
  );
}

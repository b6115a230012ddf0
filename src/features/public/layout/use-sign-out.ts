import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { toast } from 'sonner';
import { useLocation } from 'wouter';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { errorMessage } from '../../../lib/errors';
import { session } from '../../../lib/session';
import { useTRPC } from '../../../lib/trpc';

export const SIGNED_OUT_MESSAGE = 'You have been logged out successfully';

/**
 * Spec 4: sign out on the server, then clear the session, go to the root and
 * say so. A session the server no longer knows (expired or revoked) is
 * already signed out there, so it is cleared here too; any other failure
 * keeps the visitor signed in and shows the server's message.
 */
export function useSignOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const [, navigate] = useLocation();
  const signOut = useMutation(trpc.auth.signOut.mutationOptions());

  const finish = () => {
    session.clear();
    queryClient.clear();
    navigate('/');
    toast.success(SIGNED_OUT_MESSAGE);
  };

  return async () => {
    try {
      await overlay.run(signOut.mutateAsync({ refreshToken: session.refreshToken() ?? undefined }));
      finish();
    } catch (err) {
      if (err instanceof TRPCClientError && err.data?.code === 'UNAUTHORIZED') finish();
      else toast.error(errorMessage(err));
    }
  };
}

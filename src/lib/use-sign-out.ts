import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from './toast';
import { navigate } from 'wouter/use-browser-location';
import { useLoadingOverlay } from '../components/LoadingOverlay';
import { isUnauthorized, signedOutPath } from './auth-client';
import { toastError } from './notify';
import { session } from './session';
import { useTRPC } from './trpc';

export const SIGNED_OUT_MESSAGE = 'You have been logged out successfully';

/**
 * Sign out on the server, then clear the session, go to the root (the
 * console: its sign-in, see `signedOutPath`) and say so. A session the server
 * no longer knows (expired or revoked) is already signed out there, so it is
 * cleared here too; any other failure keeps the user signed in and shows the
 * server's message.
 */
export function useSignOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const signOut = useMutation(trpc.auth.signOut.mutationOptions());

  const finish = () => {
    const destination = signedOutPath();
    session.clear();
    session.endSignOut();
    queryClient.clear();
    navigate(destination);
    toast.success(SIGNED_OUT_MESSAGE);
  };

  return async () => {
    // Reads still on their way (a page signed out of as soon as it showed) or started meanwhile would reach the
    // server after the session is gone and be answered 401: from now on nothing else is sent, and those under
    // way are called off, nothing of them kept.
    session.beginSignOut();
    try {
      await queryClient.cancelQueries();
      await overlay.run(signOut.mutateAsync({ refreshToken: session.refreshToken() ?? undefined }));
      finish();
    } catch (error) {
      if (isUnauthorized(error)) finish();
      else {
        session.endSignOut();
        toastError(error);
      }
    }
  };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { navigate } from 'wouter/use-browser-location';
import { useLoadingOverlay } from '../../components/LoadingOverlay';
import { isHandled } from '../../lib/auth-client';
import { errorMessage } from '../../lib/errors';
import { session } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { toastError } from './notify';

export const SIGNED_OUT_MESSAGE = 'You have been logged out successfully';

/** The server answered and refused the session (as opposed to a network or server failure). */
const refusedByServer = (error: unknown) => {
  if (!(error instanceof TRPCClientError)) return false;
  const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/**
 * Spec 4: on a dashboard path the authorization check runs on load. When the
 * server refuses the session, it is cleared and the user goes to the root
 * with the server's message. A network or server failure only shows its
 * message: nobody is signed out because the server had a hiccup.
 * A successful check refreshes 'info' (name, height, weight).
 */
export function useAuthorizationCheck() {
  const trpc = useTRPC();
  const check = useQuery({
    ...trpc.auth.checkAuthorization.queryOptions(),
    staleTime: 0,
    retry: (failures, error) => failures < 1 && !refusedByServer(error),
  });

  useEffect(() => {
    if (check.data) {
      const { id, fullName, height, weight } = check.data.data;
      const current = session.info();
      if (!current || current.id !== id || current.fullName !== fullName || current.height !== height || current.weight !== weight) {
        session.updateInfo({ id, fullName, height, weight });
      }
    }
  }, [check.data]);

  useEffect(() => {
    if (!check.error) return;
    if (isHandled(check.error)) return;
    if (refusedByServer(check.error)) {
      session.clear();
      navigate('/', { replace: true });
      toast.error(errorMessage(check.error), { id: 'authorization' });
    } else {
      toastError(check.error);
    }
  }, [check.error]);

  return check;
}

/**
 * Spec 4: sign out on the server, then clear the session, go to the root and
 * say so. A session the server no longer knows is already signed out there,
 * so it is cleared here too; any other failure keeps the user signed in and
 * shows the server's message.
 */
export function useSignOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const signOut = useMutation(trpc.auth.signOut.mutationOptions());

  const finish = () => {
    session.clear();
    navigate('/');
    queryClient.clear();
    toast.success(SIGNED_OUT_MESSAGE);
  };

  return async () => {
    try {
      await overlay.run(signOut.mutateAsync({ refreshToken: session.refreshToken() ?? undefined }));
      finish();
    } catch (error) {
      if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED') finish();
      else toastError(error);
    }
  };
}

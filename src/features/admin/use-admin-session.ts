import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { navigate } from 'wouter/use-browser-location';
import { ROLE } from '../../../server/auth/roles';
import { useLoadingOverlay } from '../../components/LoadingOverlay';
import { isHandled } from '../../lib/auth-client';
import { errorMessage } from '../../lib/errors';
import { session } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { toastError } from './ui';

export const ADMIN_LOGIN = '/admin/login';

const refusedByServer = (error: unknown) => {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/**
 * Who is signed in, checked with the server on load. A refused session is
 * cleared and the dietitian goes back to the console's sign-in; a client's
 * session is kept (it is theirs) but gets no console.
 */
export function useAdminCheck() {
  const trpc = useTRPC();
  const check = useQuery({
    ...trpc.auth.checkAuthorization.queryOptions(),
    staleTime: 60_000,
    retry: (failures, error) => failures < 1 && !refusedByServer(error),
  });
  useEffect(() => {
    if (!check.error || isHandled(check.error)) return;
    if (refusedByServer(check.error)) {
      session.clear();
      navigate(ADMIN_LOGIN, { replace: true });
      toast.error(errorMessage(check.error), { id: 'authorization' });
    } else {
      toastError(check.error);
    }
  }, [check.error]);
  const user = check.data?.data;
  return { check, user, isAdmin: user?.role === ROLE.admin };
}

/** Signs out on the server, then clears the session and returns to the console's sign-in. */
export function useAdminSignOut() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const signOut = useMutation(trpc.auth.signOut.mutationOptions());
  const finish = (message: string) => {
    session.clear();
    queryClient.clear();
    navigate(ADMIN_LOGIN);
    toast.success(message);
  };
  return async () => {
    try {
      const answer = await overlay.run(signOut.mutateAsync({ refreshToken: session.refreshToken() ?? undefined }));
      finish(answer.message);
    } catch (error) {
      if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED') finish('You have been logged out successfully');
      else toastError(error);
    }
  };
}

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from './toast';
import { navigate } from 'wouter/use-browser-location';
import { isHandled, refusedByServer, signedOutPath } from './auth-client';
import { isOutage } from './outage';
import { errorMessage } from './errors';
import { toastError } from './notify';
import { session } from './session';
import { useTRPC } from './trpc';

/**
 * A signed-in area checks the session with the server on load. When
 * the server refuses it, it is cleared and the user leaves for
 * `signedOutPath` with the server's message. A network or server failure only
 * shows its message: nobody is signed out because the server had a hiccup.
 */
export function useAuthorizationCheck({ staleTime }: { staleTime: number }) {
  const trpc = useTRPC();
  const check = useQuery({
    ...trpc.auth.checkAuthorization.queryOptions(),
    staleTime,
    retry: (failures, error) => failures < 1 && !refusedByServer(error) && !isOutage(error),
  });

  useEffect(() => {
    // An outage is shown by the Reconnecting… notice, and the check runs again when the server is back.
    if (!check.error || isHandled(check.error) || isOutage(check.error)) return;
    if (refusedByServer(check.error)) {
      const destination = signedOutPath();
      session.clear();
      navigate(destination, { replace: true });
      toast.error(errorMessage(check.error), { id: 'authorization' });
    } else {
      toastError(check.error);
    }
  }, [check.error]);

  return check;
}

import { ROLE } from '../../../server/auth/roles';
import { useAuthorizationCheck } from '../../lib/use-authorization-check';

/**
 * Who is signed in, checked with the server on load. A refused session is
 * cleared and the dietitian goes back to the console's sign-in; a client's
 * session is kept (it is theirs) but gets no console.
 */
export function useAdminCheck() {
  const check = useAuthorizationCheck({ staleTime: 60_000 });
  const user = check.data?.data;
  return { check, user, isAdmin: user?.role === ROLE.admin };
}

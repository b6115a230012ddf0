import { useEffect } from 'react';
import { session } from '../../lib/session';
import { useAuthorizationCheck } from '../../lib/use-authorization-check';

/**
 * On a dashboard path the authorization check runs on every load
 * (never from cache). A successful check refreshes 'info' (name, height, weight).
 */
export function useDashboardCheck() {
  const check = useAuthorizationCheck({ staleTime: 0 });

  useEffect(() => {
    if (check.data) {
      const { id, fullName, height, weight } = check.data.data;
      const current = session.info();
      if (!current || current.id !== id || current.fullName !== fullName || current.height !== height || current.weight !== weight) {
        session.updateInfo({ id, fullName, height, weight });
      }
    }
  }, [check.data]);

  return check;
}

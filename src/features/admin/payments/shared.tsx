import { useQueryClient } from '@tanstack/react-query';
import { GST_STATES } from '../../../../server/payments/schema';
import { useTRPC } from '../../../lib/trpc';

/** After a change on the Payments page: the invoice lists and the figures reload. */
export function useRefreshPayments() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.invoice.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.admin.payments.summary.queryKey() }),
    ]);
}

/** The GST states, as a select's options. */
export function StateOptions({ blank }: { blank?: string }) {
  return (
    <>
      {blank !== undefined && <option value="">{blank}</option>}
      {GST_STATES.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </>
  );
}

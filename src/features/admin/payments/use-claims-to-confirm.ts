import { useQuery } from '@tanstack/react-query';
import type { LinkBadge } from '../../../components/shell/AppShell';
import { useTRPC } from '../../../lib/trpc';
import { useLiveInvoices } from '../../payments/use-live-invoices';

/**
 * The console's Payments link count: UPI claims waiting for the dietitian to
 * confirm. It follows the invoices live channel, so a client's claim, a
 * confirmation or a rejection anywhere changes it within a moment.
 */
export function useClaimsToConfirm(): LinkBadge {
  const trpc = useTRPC();
  const summary = useQuery(trpc.admin.payments.summary.queryOptions());
  useLiveInvoices([trpc.admin.payments.summary.queryKey()]);
  const count = summary.data?.claimedWaiting ?? 0;
  return { count, label: 'to confirm' };
}

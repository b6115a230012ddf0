import { useQueryClient } from '@tanstack/react-query';
import type { InvoiceEvent } from '../../../server/payments/schema';
import { useTRPC } from '../../lib/trpc';
import { useLiveSubscription } from '../../lib/use-live-subscription';

/**
 * Invoices live (invoice.events): on every change the viewer may see, and
 * when the stream (re)starts, every invoice list reloads, with whatever else
 * the page names (the console's figures). The client's badge and page, and
 * the console's Payments, all follow it.
 */
export function useLiveInvoices(alsoRefresh: readonly (readonly unknown[])[] = []) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.invoice.list.queryKey() });
    for (const queryKey of alsoRefresh) void queryClient.invalidateQueries({ queryKey });
  };
  return useLiveSubscription({
    resumable: false,
    options: (_lastEventId, handlers) => trpc.invoice.events.subscriptionOptions(undefined, handlers),
    onReady: refresh,
    onEvent: (_event: InvoiceEvent) => refresh(),
  });
}

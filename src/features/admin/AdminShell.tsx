import { ShieldCheck } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BRAND } from '../../../server/brand';
import { AppShell } from '../../components/shell/AppShell';
import type { InboxEvent } from '../../../server/messages/schema';
import { useTRPC } from '../../lib/trpc';
import { useTitleArea } from '../../lib/use-document-title';
import { useLiveSubscription } from '../../lib/use-live-subscription';
import { ADMIN_LINKS, isCurrent } from './nav';
import { useClaimsToConfirm } from './payments/use-claims-to-confirm';

/** The console's frame: the dashboard's, with the console's links and badge. */
export function AdminShell({ name, onSignOut, children }: { name: string; onSignOut: () => void; children: ReactNode }) {
  const trpc = useTRPC();
  const unread = useQuery(trpc.messages.unread.queryOptions());
  const claimsToConfirm = useClaimsToConfirm();
  // Console tabs read "Calendar · Console | Poshan", like every console page.
  useTitleArea('Console');
  const queryClient = useQueryClient();
  // Any conversation changed (a message, a receipt): the inbox and the badge reload.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.admin.messages.inbox.queryKey() });
  };
  useLiveSubscription({
    resumable: false,
    options: (_lastEventId, handlers) => trpc.admin.messages.inboxEvents.subscriptionOptions(undefined, handlers),
    onReady: refresh,
    onEvent: (_event: InboxEvent) => refresh(),
  });
  return (
    <AppShell
      area="admin"
      navLabel="Console"
      homeHref="/"
      brand={
        <>
          {/* Read out at every width (the link has nothing else to name it), shown from xs up. */}
          <span className="sr-only xs:not-sr-only">{BRAND.name}</span>
          <span className="hidden items-center gap-1 rounded-full bg-brand-900 px-2 py-0.5 text-xs font-semibold ring-1 ring-white/40 sm:inline-flex">
            <ShieldCheck className="h-3.5 w-3.5" aria-hidden="true" />
            Console
          </span>
        </>
      }
      links={ADMIN_LINKS}
      isCurrent={isCurrent}
      userName={name}
      onSignOut={onSignOut}
      contentWidth="max-w-6xl"
      badges={{ '/messages': unread.data?.totalUnread, '/payments': claimsToConfirm }}
    >
      {children}
    </AppShell>
  );
}

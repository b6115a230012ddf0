import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BRAND } from '../../../server/brand';
import { AppShell } from '../../components/shell/AppShell';
import type { ConversationEvent } from '../../../server/messages/schema';
import { useTRPC } from '../../lib/trpc';
import { useLiveSubscription } from '../../lib/use-live-subscription';
import { useSessionInfo } from '../../lib/use-session';
import { useSignOut } from '../../lib/use-sign-out';
import { useLiveInvoices } from '../payments/use-live-invoices';
import { useTitleCount } from '../../lib/use-document-title';
import { DASHBOARD_LINKS, DASHBOARD_TABS, isCurrent } from './nav';
import { InstallCard } from './offline/InstallCard';
import { OfflineBanner } from './offline/OfflineBanner';
import { UpdateNotice } from './offline/UpdateNotice';
import { useNewJournalComments } from './use-new-comments';

/**
 * The dashboard's frame, with the signed-in client's full name; on a phone a bottom tab bar. Counts of
 * what needs her (unread messages, new comments on her meals, invoices to pay) follow the live channel,
 * on the drawer's links, the tabs and the page title.
 */
export function DashboardShell({ children }: { children: ReactNode }) {
  const info = useSessionInfo();
  const signOut = useSignOut();
  const trpc = useTRPC();
  const unread = useQuery(trpc.messages.unread.queryOptions());
  const queryClient = useQueryClient();
  // The drawer's badge follows the client's conversation live: a new message or a read elsewhere recounts it.
  const conversationId = useQuery(trpc.messages.conversations.queryOptions({})).data?.items[0]?.id ?? 0;
  useLiveSubscription({
    key: conversationId,
    enabled: conversationId > 0,
    resumable: true,
    options: (lastEventId, handlers) => trpc.messages.events.subscriptionOptions({ conversationId, lastEventId }, handlers),
    onReady: () => void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() }),
    onEvent: (event: ConversationEvent) => {
      if (event.kind === 'message') void queryClient.invalidateQueries({ queryKey: trpc.messages.unread.queryKey() });
    },
  });
  // Open invoices for the drawer's badge, and the payments page, follow the client's invoices live.
  const openCount = useQuery(trpc.invoice.list.queryOptions({ status: 'open', pageSize: 25 })).data?.total ?? 0;
  useLiveInvoices();
  const unreadMessages = unread.data?.totalUnread ?? 0;
  const newComments = useNewJournalComments(info?.id ?? null);
  // What someone else wrote to her is counted in the title too (another tab, the app switcher).
  useTitleCount(unreadMessages + newComments);
  return (
    <AppShell
      area="dashboard"
      navLabel="Dashboard"
      homeHref="~/"
      brand={
        <>
          <span className="hidden xs:inline">{BRAND.name}</span>
          <span className="sr-only">, home</span>
        </>
      }
      links={DASHBOARD_LINKS}
      isCurrent={isCurrent}
      userName={info?.fullName ?? ''}
      onSignOut={() => void signOut()}
      contentWidth="max-w-5xl"
      tabs={DASHBOARD_TABS}
      badges={{
        '/messages': unreadMessages,
        '/journal': { count: newComments, label: newComments === 1 ? 'new comment' : 'new comments' },
        '/payments': { count: openCount, label: openCount === 1 ? 'invoice to pay' : 'invoices to pay' },
      }}
    >
      <OfflineBanner />
      <InstallCard />
      {children}
      <UpdateNotice />
    </AppShell>
  );
}

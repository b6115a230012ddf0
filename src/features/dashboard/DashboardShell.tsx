import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { BRAND } from '../../../server/brand';
import { AppShell } from '../../components/shell/AppShell';
import { useTRPC } from '../../lib/trpc';
import { useSessionInfo } from '../../lib/use-session';
import { useSignOut } from '../../lib/use-sign-out';
import { DASHBOARD_LINKS, isCurrent } from './nav';

/** The dashboard's frame, with the signed-in client's full name. */
export function DashboardShell({ children }: { children: ReactNode }) {
  const info = useSessionInfo();
  const signOut = useSignOut();
  const trpc = useTRPC();
  const unread = useQuery(trpc.messages.unread.queryOptions());
  // Open invoices for the drawer's badge; refetched when the window regains focus.
  const open = useQuery({ ...trpc.invoice.list.queryOptions({ status: 'open', pageSize: 25 }), refetchOnWindowFocus: true });
  const openCount = open.data?.total ?? 0;
  const { refetch } = open;
  useEffect(() => {
    const onFocus = () => void refetch();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);
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
      badges={{
        '/messages': unread.data?.totalUnread,
        '/payments': { count: openCount, label: openCount === 1 ? 'invoice to pay' : 'invoices to pay' },
      }}
    >
      {children}
    </AppShell>
  );
}

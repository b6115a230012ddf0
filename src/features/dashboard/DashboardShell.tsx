import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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
      badges={{ '/messages': unread.data?.totalUnread }}
    >
      {children}
    </AppShell>
  );
}

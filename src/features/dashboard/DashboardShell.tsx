import type { ReactNode } from 'react';
import { BRAND } from '../../../server/brand';
import { AppShell } from '../../components/shell/AppShell';
import { useSessionInfo } from '../../lib/use-session';
import { useSignOut } from '../../lib/use-sign-out';
import { DASHBOARD_LINKS, isCurrent } from './nav';

/** The dashboard's frame, with the signed-in client's full name. */
export function DashboardShell({ children }: { children: ReactNode }) {
  const info = useSessionInfo();
  const signOut = useSignOut();
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
    >
      {children}
    </AppShell>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AlarmClock,
  CalendarClock,
  CreditCard,
  FileText,
  LifeBuoy,
  type LucideIcon,
  MessageSquareReply,
  MessagesSquare,
  ReceiptIndianRupee,
  Star,
  Users,
  UtensilsCrossed,
} from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { OverviewEvent } from '../../../../server/admin/overview/schema';
import { LAB_REPORTS_NEW_DAYS } from '../../../../server/admin/overview/schema';
import { followUpViewHref } from '../../../../server/check-in/schema';
import { Card } from '../../../components/ui/Card';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { useLiveSubscription } from '../../../lib/use-live-subscription';
import { VisitsChart } from '../charts/VisitsChart';
import { LoadError, Loading, Page } from '../ui';
import { OperationalHealth } from './OperationalHealth';
import { TodayAppointments } from '../../appointments/console/CalendarPage';
import { WaitingCallsNotice } from '../../calls/WaitingCallsNotice';

export function OverviewPage() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.admin.overview.get.queryOptions());
  useLiveOverview();
  return (
    <Page title="Overview" lead="What needs attention today, and how the site is doing.">
      <WaitingCallsNotice />
      {overview.isPending ? (
        <Loading label="Loading the overview" />
      ) : overview.isError ? (
        <LoadError error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="flex flex-col gap-5">
          {/* The dietitian's own daily work comes first: what waits for her, live; each count opens the page that clears it. */}
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-3" data-testid="overview-follow-ups">
            <Stat
              href="/messages"
              Icon={MessagesSquare}
              label="Unread messages"
              value={overview.data.unreadMessages}
              hint="from clients, not read yet"
            />
            <Stat
              href="/payments"
              Icon={ReceiptIndianRupee}
              label="Claims to confirm"
              value={overview.data.claimsToConfirm}
              hint="payments clients reported"
            />
            <Stat
              href={
                overview.data.newLabReports.newestClientId === null ? '/clients' : `/clients/${overview.data.newLabReports.newestClientId}`
              }
              Icon={FileText}
              label="New lab reports"
              value={overview.data.newLabReports.count}
              hint={`added by clients, last ${LAB_REPORTS_NEW_DAYS} days`}
            />
            <Stat
              href={followUpViewHref('no-meals')}
              Icon={UtensilsCrossed}
              label="No meals logged"
              value={overview.data.clientsWithoutMeals}
              hint="clients, none in 7 days"
            />
            <Stat
              href={followUpViewHref('awaiting-reply')}
              Icon={MessageSquareReply}
              label="Check-ins awaiting a reply"
              value={overview.data.checkInsAwaitingReply}
              hint="latest check-in, no reply yet"
            />
            <Stat
              href={followUpViewHref('overdue')}
              Icon={AlarmClock}
              label="Overdue follow-ups"
              value={overview.data.overdueFollowUps}
              hint="check-in past its due day"
            />
          </div>
          <div
            className="grid grid-cols-2 gap-3 lg:grid-cols-5 [&>*:last-child:nth-child(odd)]:col-span-2 lg:[&>*:last-child:nth-child(odd)]:col-span-1"
            data-testid="overview-stats"
          >
            <Stat href="/bookings" Icon={CalendarClock} label="New bookings" value={overview.data.newBookings} hint="waiting for a call" />
            <Stat
              href="/support"
              Icon={LifeBuoy}
              label="Open support requests"
              value={overview.data.openSupportRequests}
              hint="to answer"
            />
            <Stat
              href="/subscriptions"
              Icon={CreditCard}
              label="Active subscriptions"
              value={overview.data.activeSubscriptions}
              hint="running today"
            />
            <Stat href="/clients" Icon={Users} label="Active clients" value={overview.data.activeClients} hint="with an account" />
            <Stat
              href="/reviews"
              Icon={Star}
              label="Average rating"
              value={overview.data.rating.average === null ? '—' : `${overview.data.rating.average.toFixed(1)} ★`}
              hint={`${overview.data.rating.count} ${overview.data.rating.count === 1 ? 'review' : 'reviews'}`}
            />
          </div>
          <TodayAppointments />
          <Card title="Visits, last 30 days">
            <div className="p-4 sm:p-5">
              <VisitsChart days={overview.data.visits} />
            </div>
          </Card>
          <OperationalHealth />
        </div>
      )}
    </Page>
  );
}

/**
 * The counts follow every message, receipt, claim, meal, check-in and contact
 * (admin.overview.events); a client's new lab report is also told in a toast.
 * Reloads that arrive together are one: the query is invalidated, and React
 * Query keeps one fetch in flight.
 */
function useLiveOverview() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.admin.overview.get.queryKey() });
  useLiveSubscription({
    resumable: false,
    options: (_lastEventId, handlers) => trpc.admin.overview.events.subscriptionOptions(undefined, handlers),
    onReady: refresh,
    onEvent: (event: OverviewEvent) => {
      refresh();
      if (event.kind === 'lab-report') {
        const { clientId } = event;
        toast.info('A client added a lab report', {
          description: 'It is on her record, under Documents.',
          action: { label: 'Open', onClick: () => navigate(`/clients/${clientId}`) },
        });
      }
    },
  });
}

function Stat({ href, Icon, label, value, hint }: { href: string; Icon: LucideIcon; label: string; value: number | string; hint: string }) {
  return (
    <Link
      href={href}
      className="group flex flex-col items-start gap-2 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm transition-colors hover:border-brand-300 sm:flex-row sm:gap-3 sm:p-4"
    >
      <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 sm:h-10 sm:w-10">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <span className="min-w-0">
        <span className="block text-sm font-medium text-slate-600">{label}</span>
        <span className="block text-2xl font-bold text-slate-900" data-testid={`stat-${label}`}>
          {value}
        </span>
        <span className="block text-xs text-slate-500">{hint}</span>
      </span>
    </Link>
  );
}

import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, CreditCard, PauseCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { PLAN_TYPE_LABELS } from '../../../../server/catalogue/plans';
import { Card } from '../../../components/ui/Card';
import { Page } from '../../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { formatDay, formatRupees } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { formatFollowUpDay } from '../../../lib/use-live-reload';

/** The active plan's card (Status 'Active' while not expired), else the empty text. */
export function ActiveSubscriptionPage() {
  const trpc = useTRPC();
  const subscriptions = useQuery({ ...trpc.subscription.active.queryOptions({ active: true }), staleTime: 0 });
  const active = (subscriptions.data ?? []).filter((s) => !s.isExpired);

  return (
    <Page title="Active Subscription" lead="The plan you are on now." width="max-w-2xl">
      {subscriptions.isPending ? (
        <Loading label="Loading your subscription" />
      ) : subscriptions.isError ? (
        <LoadError error={subscriptions.error} onRetry={() => void subscriptions.refetch()} />
      ) : active.length === 0 ? (
        <Card>
          <EmptyState Icon={CreditCard} testId="subscription-empty">
            You currently have no active subscription.
          </EmptyState>
        </Card>
      ) : (
        <div className="flex flex-col gap-5">
          {active.map((s) => (
            <Card key={s.id} className="overflow-hidden">
              <div className="flex items-center justify-between gap-3 bg-gradient-to-r from-brand-700 to-brand-600 px-5 py-4 text-white sm:px-6">
                <h2 className="text-lg font-bold sm:text-xl">{s.planId_fk.planName}</h2>
                <CreditCard className="h-6 w-6 shrink-0 opacity-80" aria-hidden="true" />
              </div>
              <dl className="grid grid-cols-1 gap-x-6 gap-y-4 p-5 xs:grid-cols-2 sm:p-6" data-testid="subscription-card">
                <Item label="Plan Type">{PLAN_TYPE_LABELS[s.planId_fk.planType] ?? s.planId_fk.planType}</Item>
                <Item label="Plan Price">{formatRupees(s.planId_fk.planMRP)}</Item>
                <Item label="Amount Paid">{formatRupees(s.amountReceived)}</Item>
                <Item label="Start Date">{formatDay(s.startDate)}</Item>
                <Item label="End Date">{formatDay(s.endDate)}</Item>
                <Item label="Status">
                  {s.pausedSince ? (
                    <span
                      className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-3 py-0.5 text-sm font-semibold text-amber-900"
                      data-testid="subscription-paused"
                    >
                      <PauseCircle className="h-4 w-4" aria-hidden="true" />
                      Paused since {formatFollowUpDay(s.pausedSince)}
                    </span>
                  ) : (
                    <span className="inline-flex items-center gap-1.5 rounded-full bg-green-100 px-3 py-0.5 text-sm font-semibold text-green-800">
                      <BadgeCheck className="h-4 w-4" aria-hidden="true" />
                      Active
                    </span>
                  )}
                </Item>
              </dl>
            </Card>
          ))}
        </div>
      )}
    </Page>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-b border-slate-100 pb-3 xs:block xs:border-0 xs:pb-0">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-base font-semibold text-slate-900 xs:mt-0.5 xs:text-lg">{children}</dd>
    </div>
  );
}

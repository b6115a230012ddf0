import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, CalendarClock, CreditCard, PauseCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { PLAN_TYPE_LABELS } from '../../../../server/catalogue/plans';
import { Card } from '../../../components/ui/Card';
import { Page } from '../../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { formatDay, formatRupees } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { formatFollowUpDay } from '../../../lib/use-live-reload';
import { formatPaise } from '../../payments/format';

/**
 * The running plan's card first (Status 'Active'), then any plan paid ahead,
 * labelled with the day it starts; else the empty text. A plan paid by
 * invoice shows the invoice's price, tax and total, so "amount paid" is what
 * the invoice said.
 */
export function ActiveSubscriptionPage() {
  const trpc = useTRPC();
  const subscriptions = useQuery({ ...trpc.subscription.active.queryOptions({ active: true }), staleTime: 0 });
  const active = (subscriptions.data ?? []).filter((s) => !s.isExpired);

  return (
    <Page title="Active Subscription" lead="The plan you are on now, and any you have paid for ahead." width="max-w-2xl">
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
              <div
                className={`flex items-center justify-between gap-3 px-5 py-4 sm:px-6 ${
                  s.status === 'upcoming' ? 'bg-slate-100 text-slate-900' : 'bg-gradient-to-r from-brand-700 to-brand-600 text-white'
                }`}
              >
                <h2 className="text-lg font-bold sm:text-xl">
                  {s.status === 'upcoming' && <span className="block text-sm font-semibold text-slate-700">Next plan</span>}
                  {s.planId_fk.planName}
                </h2>
                <CreditCard className="h-6 w-6 shrink-0 opacity-80" aria-hidden="true" />
              </div>
              <dl
                className="grid grid-cols-1 gap-x-6 gap-y-4 p-5 xs:grid-cols-2 sm:p-6"
                data-testid="subscription-card"
                data-status={s.status}
              >
                <Item label="Plan Type">{PLAN_TYPE_LABELS[s.planId_fk.planType] ?? s.planId_fk.planType}</Item>
                {s.invoice ? (
                  <>
                    <Item label="Plan Price">
                      {formatPaise(s.invoice.planPricePaise)}
                      {s.invoice.planPricePaise < s.planId_fk.planMRP * 100 && (
                        <span className="ml-2 text-sm font-normal text-slate-600">
                          list <s>{formatRupees(s.planId_fk.planMRP)}</s>
                        </span>
                      )}
                    </Item>
                    {s.invoice.discountPaise > 0 && <Item label="Discount">−{formatPaise(s.invoice.discountPaise)}</Item>}
                    {s.invoice.taxPaise > 0 && <Item label="GST">{formatPaise(s.invoice.taxPaise)}</Item>}
                    <Item label="Amount Paid">
                      <span data-testid="subscription-paid">{formatPaise(s.invoice.totalPaise)}</span>
                      <span className="block text-sm font-normal text-slate-600">Invoice {s.invoice.number}</span>
                    </Item>
                  </>
                ) : (
                  <>
                    <Item label="Plan Price">{formatRupees(s.planId_fk.planMRP)}</Item>
                    <Item label="Amount Paid">
                      <span data-testid="subscription-paid">{formatRupees(s.amountReceived)}</span>
                    </Item>
                  </>
                )}
                <Item label="Start Date">{formatDay(s.startDate)}</Item>
                <Item label="End Date">{formatDay(s.endDate)}</Item>
                <Item label="Status">
                  {s.status === 'upcoming' ? (
                    <span
                      className="inline-flex items-center gap-1.5 rounded-full bg-sky-100 px-3 py-0.5 text-sm font-semibold text-sky-900"
                      data-testid="subscription-upcoming"
                    >
                      <CalendarClock className="h-4 w-4" aria-hidden="true" />
                      Starts {formatDay(s.startDate)}
                    </span>
                  ) : s.pausedSince ? (
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

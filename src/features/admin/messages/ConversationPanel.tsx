import type { UseQueryResult } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { Link } from 'wouter';
import type { AppRouter } from '../../../../server/trpc/root';
import { formatDay } from '../../../lib/format';
import { LoadError, Loading } from '../ui';

type Panel = inferRouterOutputs<AppRouter>['admin']['messages']['panel'];

/** What a dietitian needs beside a conversation: the client's latest check-in, weight trend, active plan and subscription. */
export function ConversationPanel({ query }: { query: UseQueryResult<Panel, unknown> }) {
  return (
    <aside
      aria-label="About this client"
      className="flex min-h-0 flex-col gap-3 overflow-y-auto rounded-2xl border border-slate-200 bg-white p-4 text-sm"
      data-testid="conversation-panel"
    >
      {query.isPending ? (
        <Loading label="Loading the client's record" />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <PanelBody panel={query.data} />
      )}
    </aside>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="border-b border-slate-100 pb-3 last:border-0">
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** The next check-in in words: due, overdue, upcoming, paused, or none while the client has no subscription. */
function nextCheckInText(next: Panel['nextCheckIn']): string {
  const day = next.dueDate ? formatDay(next.dueDate) : null;
  switch (next.state) {
    case 'overdue':
      return `Next check-in overdue since ${day}`;
    case 'due':
      return `Next check-in due today (${day})`;
    case 'upcoming':
      return `Next check-in on ${day}`;
    case 'paused':
      return 'Check-ins paused';
    default:
      return 'No check-ins scheduled (no active subscription)';
  }
}

function PanelBody({ panel }: { panel: Panel }) {
  const { conversation, latestCheckIn, nextCheckIn, weights, activePlan, subscription } = panel;
  const first = weights[0];
  const last = weights.at(-1);
  const change = first && last && weights.length > 1 ? Math.round((last.weight - first.weight) * 10) / 10 : null;
  return (
    <>
      <Section title="Client">
        <Link href={`/clients/${conversation.client.id}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
          {conversation.client.name}
        </Link>
        {!conversation.client.active && <p className="text-red-700">Deactivated</p>}
        <p className="text-slate-600">Primary dietitian: {conversation.primaryDietitian?.name ?? 'none (every dietitian is told)'}</p>
      </Section>
      <Section title="Latest check-in">
        {latestCheckIn ? (
          <>
            <p>
              {formatDay(latestCheckIn.date)}: {latestCheckIn.weight} kg, followed the plan {latestCheckIn.adherence}/5
            </p>
            {latestCheckIn.notes && <p className="mt-1 whitespace-pre-wrap text-slate-700">“{latestCheckIn.notes}”</p>}
            <p className="mt-1 text-slate-600">{latestCheckIn.reply ? 'Answered' : 'Not answered yet'}</p>
          </>
        ) : (
          <p className="text-slate-600">No check-in yet</p>
        )}
        <p className="mt-1 text-slate-600">{nextCheckInText(nextCheckIn)}</p>
      </Section>
      <Section title="Weight">
        {last ? (
          <p>
            {last.weight} kg on {formatDay(last.date)}
            {change !== null && (
              <span className="text-slate-600">
                {' '}
                ({change > 0 ? '+' : ''}
                {change} kg since {formatDay(first!.date)})
              </span>
            )}
          </p>
        ) : (
          <p className="text-slate-600">No weight recorded</p>
        )}
      </Section>
      <Section title="Diet plan">
        {activePlan ? (
          <Link href={`/diet-plans/${activePlan.id}`} className="text-brand-800 underline-offset-2 hover:underline">
            {activePlan.title} ({formatDay(activePlan.from)} – {formatDay(activePlan.to)})
          </Link>
        ) : (
          <p className="text-slate-600">No active plan</p>
        )}
      </Section>
      <Section title="Subscription">
        {subscription ? (
          <p>
            {subscription.planName}, {subscription.status} until {formatDay(subscription.endDate)}
          </p>
        ) : (
          <p className="text-slate-600">No subscription</p>
        )}
      </Section>
    </>
  );
}

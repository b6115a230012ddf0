import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Activity, AlertTriangle, BellOff, MailWarning } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { formatMoment } from '../format';
import { LoadError, Loading } from '../ui';

/** Refreshed while the Overview is open, so "live now" stays current. */
const REFRESH_MS = 15_000;

/** How the service is doing: clients live now, the last error, failed mails with a retry, and push notifications that failed. */
export function OperationalHealth() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const health = useQuery({ ...trpc.admin.overview.health.queryOptions(), refetchInterval: REFRESH_MS });
  const retry = useMutation(trpc.admin.overview.retryMail.mutationOptions());

  const retryMail = async (id: number) => {
    try {
      const result = await retry.mutateAsync({ id });
      if (result.status === 'failed') toast.error(`Mail #${id} failed again. Check the mail settings (SMTP_URL).`);
      else toast.success(`Mail #${id} was sent again.`);
    } catch (error) {
      toastError(error);
    } finally {
      await queryClient.invalidateQueries(trpc.admin.overview.health.queryFilter());
    }
  };

  return (
    <Card title="Operational health">
      <div className="p-4 sm:p-5" data-testid="operational-health">
        {health.isPending ? (
          <Loading label="Loading operational health" />
        ) : health.isError ? (
          <LoadError error={health.error} onRetry={() => void health.refetch()} />
        ) : (
          <div className="flex flex-col gap-4">
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
              <Fact Icon={Activity} label="Clients live now" value={String(health.data.liveClients)} testId="health-live-clients" />
              <Fact
                Icon={AlertTriangle}
                label="Last error"
                value={health.data.lastErrorAt ? formatMoment(health.data.lastErrorAt) : 'None since the server started'}
                testId="health-last-error"
              />
              <Fact Icon={MailWarning} label="Failed mails" value={String(health.data.failedMailCount)} testId="health-failed-mails" />
              <Fact
                Icon={BellOff}
                label="Failed push notifications"
                value={String(health.data.failedPushCount)}
                testId="health-failed-pushes"
              />
            </dl>
            {health.data.failedMails.length > 0 && (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" aria-label="Failed mails">
                {health.data.failedMails.map((m) => (
                  <li key={m.id} className="flex flex-wrap items-center gap-3 p-3 text-sm" data-testid="failed-mail">
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium text-slate-900">{m.subject}</span>
                      <span className="block text-slate-600">
                        to {m.to} · {formatMoment(m.createdAt)}
                      </span>
                      {m.error && <span className="block break-words text-xs text-red-700">{m.error}</span>}
                    </span>
                    <Button size="sm" variant="secondary" disabled={retry.isPending} onClick={() => void retryMail(m.id)}>
                      Retry
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {health.data.failedPushes.length > 0 && (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" aria-label="Failed push notifications">
                {health.data.failedPushes.map((p) => (
                  <li key={p.id} className="p-3 text-sm" data-testid="failed-push">
                    <span className="block font-medium text-slate-900">
                      Push via {p.service} · {p.attempts} {p.attempts === 1 ? 'attempt' : 'attempts'}
                    </span>
                    {p.failedAt && <span className="block text-slate-600">{formatMoment(p.failedAt)}</span>}
                    {p.error && <span className="block break-words text-xs text-red-700">{p.error}</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

function Fact({ Icon, label, value, testId }: { Icon: typeof Activity; label: string; value: string; testId: string }) {
  return (
    // A <dl> group holds only its <dt> and <dd>: the icon sits inside the term.
    <div className="rounded-xl bg-slate-50 p-3">
      <dt className="flex items-start gap-3 text-sm text-slate-600">
        <Icon className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
        {label}
      </dt>
      <dd className="pl-8 font-semibold text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

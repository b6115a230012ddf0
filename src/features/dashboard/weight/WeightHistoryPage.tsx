import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Scale, Trash2, TrendingDown, TrendingUp } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { Link } from 'wouter';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Modal } from '../../../components/ui/Modal';
import { Page } from '../../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { bmiCategory, computeBmi, formatBmi } from '../../../lib/bmi';
import { formatDay } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { useSessionInfo } from '../../../lib/use-session';
import { WeightChart } from '../../../components/charts/WeightChart';
import type { RouterOutputs } from '../../../lib/router-types';

type WeightEntry = RouterOutputs['weight']['list'][number];

export const WEIGHT_DELETED = 'Weight deleted successfully!';
const fmtKg = (kg: number) => kg.toLocaleString(undefined, { maximumFractionDigits: 2 });

export function WeightHistoryPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overlay = useLoadingOverlay();
  const weights = useQuery({ ...trpc.weight.list.queryOptions({}), staleTime: 0 });
  const remove = useMutation(trpc.weight.remove.mutationOptions());
  const [confirming, setConfirming] = useState<WeightEntry | null>(null);

  const onRemove = async (entry: WeightEntry) => {
    setConfirming(null);
    try {
      await overlay.run(remove.mutateAsync({ id: entry.id }));
      toast.success(WEIGHT_DELETED);
    } catch (error) {
      toastError(error);
    } finally {
      // Removing a weight reloads the list.
      await queryClient.invalidateQueries({ queryKey: trpc.weight.list.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.auth.checkAuthorization.queryKey() });
    }
  };

  const entries = weights.data ?? [];
  const back = (
    <Link
      href="/update-weight"
      className="mb-3 inline-flex items-center gap-2 rounded-md text-sm font-semibold text-brand-800 hover:underline"
    >
      <ArrowLeft className="h-5 w-5" aria-hidden="true" />
      <span>Update Weight</span>
    </Link>
  );

  return (
    <Page title="Weight History" before={back} width="max-w-3xl">
      {weights.isPending ? (
        <Loading label="Loading your weight history" />
      ) : weights.isError ? (
        <LoadError error={weights.error} onRetry={() => void weights.refetch()} />
      ) : entries.length === 0 ? (
        <Card>
          <EmptyState Icon={Scale} testId="weights-empty">
            No weight history!
          </EmptyState>
        </Card>
      ) : (
        <div className="flex flex-col gap-5">
          <Card className="p-4 sm:p-6">
            <LatestSummary entries={entries} />
            <div className="mt-4">
              <WeightChart entries={entries} />
            </div>
          </Card>
          <Card className="overflow-hidden">
            <div className="max-h-[520px] overflow-auto" data-testid="weights-scroll">
              <table className="w-full text-left text-sm sm:text-base" data-testid="weights-table">
                <caption className="sr-only">Your weigh-ins, newest first</caption>
                <thead className="sticky top-0 bg-brand-50 text-brand-900">
                  <tr>
                    <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
                      Weight (in kg)
                    </th>
                    <th scope="col" className="px-3 py-3 font-semibold sm:px-4">
                      Date
                    </th>
                    <th scope="col" className="px-3 py-3 text-right font-semibold sm:px-4">
                      Action
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {entries.map((entry) => (
                    <tr key={entry.id} className="hover:bg-slate-50">
                      <td className="px-3 py-3 font-medium text-slate-900 tabular-nums sm:px-4">{fmtKg(entry.weight)}</td>
                      <td className="px-3 py-3 whitespace-nowrap text-slate-700 sm:px-4">{formatDay(entry.date)}</td>
                      <td className="px-1 py-2 text-right sm:px-4">
                        <button
                          type="button"
                          onClick={() => setConfirming(entry)}
                          className="inline-flex items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50 sm:px-3"
                          aria-label={`Remove ${fmtKg(entry.weight)} kg on ${formatDay(entry.date)}`}
                        >
                          <Trash2 className="hidden h-4 w-4 sm:block" aria-hidden="true" />
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        </div>
      )}
      <Modal
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Remove this weigh-in?"
        description={
          confirming
            ? `${fmtKg(confirming.weight)} kg on ${formatDay(confirming.date)} will be removed from your history and chart.`
            : undefined
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Keep it
            </Button>
            <Button variant="danger" onClick={() => confirming && void onRemove(confirming)}>
              Remove
            </Button>
          </>
        }
      >
        {null}
      </Modal>
    </Page>
  );
}

/** The latest weigh-in, the change since the first, and the BMI they give with the height on file. */
function LatestSummary({ entries }: { entries: WeightEntry[] }) {
  const heightM = useSessionInfo()?.height ?? null;
  const latest = entries.reduce((a, b) => (b.date > a.date ? b : a));
  const earliest = entries.reduce((a, b) => (b.date < a.date ? b : a));
  const change = Math.round((latest.weight - earliest.weight) * 10) / 10;
  const bmi = heightM ? computeBmi(heightM, latest.weight) : 0;
  const category = bmi > 0 ? bmiCategory(bmi) : null;

  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-5 sm:grid-cols-3">
      <div>
        <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Latest BMI</dt>
        {category ? (
          <dd>
            <span className="block text-2xl font-extrabold text-slate-900 tabular-nums" data-testid="latest-bmi">
              {formatBmi(bmi)}
            </span>
            <span className={`block text-sm font-semibold ${category.healthy ? 'text-green-700' : 'text-red-700'}`}>{category.label}</span>
          </dd>
        ) : (
          <dd className="text-sm text-slate-600" data-testid="latest-bmi">
            Your height is not on file yet, so we cannot work out your BMI.{' '}
            <Link href="/check-bmi" className="font-semibold text-brand-800 underline">
              Check BMI
            </Link>
          </dd>
        )}
      </div>
      <div>
        <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Latest weight</dt>
        <dd>
          <span className="block text-2xl font-extrabold whitespace-nowrap text-slate-900 tabular-nums">{fmtKg(latest.weight)} kg</span>
          <span className="block text-sm text-slate-600">{formatDay(latest.date)}</span>
        </dd>
      </div>
      {entries.length > 1 && (
        <div>
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Change</dt>
          <dd>
            <span className="flex items-center gap-1.5 text-2xl font-extrabold whitespace-nowrap text-slate-900 tabular-nums">
              {change < 0 ? (
                <TrendingDown className="h-5 w-5 text-brand-700" aria-hidden="true" />
              ) : (
                <TrendingUp className="h-5 w-5 text-slate-600" aria-hidden="true" />
              )}
              {change > 0 ? '+' : change < 0 ? '−' : ''}
              {fmtKg(Math.abs(change))} kg
            </span>
            <span className="block text-sm text-slate-600">since {formatDay(earliest.date)}</span>
          </dd>
        </div>
      )}
    </dl>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ruler } from 'lucide-react';
import { MEASUREMENT_PARTS, type MeasurementPart, measurementForm } from '../../../server/care-record/schema';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { TextField } from '../../components/ui/Field';
import { EmptyState, LoadError, Loading } from '../../components/ui/States';
import { formatDay, localToday } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { useRecordForm } from './form-state';

const PARTS = Object.entries(MEASUREMENT_PARTS) as [MeasurementPart, string][];

/** Body measurements over time: a form for today's (or a past day's) and the history, newest first. */
export function MeasurementsCard({ clientId }: { clientId?: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = clientId === undefined ? {} : { clientId };
  const list = useQuery({ ...trpc.careRecord.measurements.list.queryOptions(input), staleTime: 0 });
  const create = useMutation(trpc.careRecord.measurements.create.mutationOptions());
  const form = useRecordForm(measurementForm, { date: localToday(), waistCm: '', hipCm: '', chestCm: '', armCm: '', thighCm: '' });
  return (
    <Card title="Body measurements">
      <div className="flex flex-col gap-5 p-4 sm:p-5">
        <form
          method="post"
          className="flex flex-col gap-4"
          data-testid="measurement-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const ok = await form.submit((values, clientRequestId) =>
              create.mutateAsync({ ...values, clientId, clientRequestId } as never),
            );
            if (ok) {
              toast.success('Measurements saved.');
              await queryClient.invalidateQueries({ queryKey: trpc.careRecord.measurements.list.queryKey() });
              void queryClient.invalidateQueries({ queryKey: trpc.careRecord.goals.get.queryKey() });
            }
          }}
        >
          <div className="grid grid-cols-2 gap-3 xs:grid-cols-3 mdx:grid-cols-6">
            <div className="col-span-2 xs:col-span-1">
              <TextField
                id="measure-date"
                label="Date"
                type="date"
                max={localToday()}
                value={form.values.date}
                error={form.errors.date}
                onChange={(e) => form.set('date', e.target.value)}
              />
            </div>
            {PARTS.map(([part, label]) => (
              <TextField
                key={part}
                id={`measure-${part}`}
                label={`${label} (cm)`}
                inputMode="decimal"
                value={form.values[part]}
                error={form.errors[part]}
                onChange={(e) => form.set(part, e.target.value)}
              />
            ))}
          </div>
          <div>
            <Button type="submit" disabled={form.busy}>
              Save measurements
            </Button>
          </div>
        </form>
        {list.isPending ? (
          <Loading label="Loading measurements" compact />
        ) : list.isError ? (
          <LoadError error={list.error} onRetry={() => void list.refetch()} compact />
        ) : list.data.length === 0 ? (
          <EmptyState Icon={Ruler} compact>
            No measurements yet. Measure once a fortnight, in the morning, at the same spots.
          </EmptyState>
        ) : (
          <div className="max-h-96 overflow-auto rounded-xl border border-slate-200">
            <table className="w-full text-left text-sm" data-testid="measurements-table">
              <caption className="sr-only">Body measurements in centimetres, newest first</caption>
              <thead className="sticky top-0 bg-brand-50 text-brand-900">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Date
                  </th>
                  {PARTS.map(([part, label]) => (
                    <th key={part} scope="col" className="px-2 py-2 text-right font-semibold">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.data.map((m) => (
                  <tr key={m.id}>
                    <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDay(m.date)}</td>
                    {PARTS.map(([part]) => (
                      <td key={part} className="px-2 py-2 text-right tabular-nums text-slate-900">
                        {m[part] ?? '—'}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </Card>
  );
}

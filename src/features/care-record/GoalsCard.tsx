import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Target } from 'lucide-react';
import { useState } from 'react';
import { goalsForm } from '../../../server/care-record/schema';
import { WeightChart } from '../../components/charts/WeightChart';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { TextField } from '../../components/ui/Field';
import { EmptyState, LoadError, Loading } from '../../components/ui/States';
import { formatDay } from '../../lib/format';
import type { RouterOutputs } from '../../lib/router-types';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { useRecordForm } from './form-state';

type Overview = RouterOutputs['careRecord']['goals']['get'];
const kg = (n: number) => `${n.toLocaleString('en-IN', { maximumFractionDigits: 1 })} kg`;

/**
 * Goals set together, with progress, and the weight chart with the target
 * line. `clientId` for the console (a dietitian names the client), where the
 * client page's own weight card draws the chart (`chart={false}` here).
 */
export function GoalsCard({ clientId, chart = true }: { clientId?: number; chart?: boolean }) {
  const trpc = useTRPC();
  const input = clientId === undefined ? {} : { clientId };
  const goals = useQuery({ ...trpc.careRecord.goals.get.queryOptions(input), staleTime: 0 });
  const weights = useQuery({ ...trpc.weight.list.queryOptions(clientId === undefined ? {} : { id: clientId }), enabled: chart });
  const [editing, setEditing] = useState(false);
  const current = goals.data?.current ?? null;
  return (
    <Card
      title="Goals"
      actions={
        !editing && goals.data ? (
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
            {current ? 'Change goals' : 'Set goals'}
          </Button>
        ) : null
      }
    >
      <div className="flex flex-col gap-5 p-4 sm:p-5" data-testid="goals-card">
        {goals.isPending ? (
          <Loading label="Loading goals" compact />
        ) : goals.isError ? (
          <LoadError error={goals.error} onRetry={() => void goals.refetch()} compact />
        ) : editing ? (
          <GoalsForm clientId={clientId} current={current} onDone={() => setEditing(false)} />
        ) : current ? (
          <GoalsSummary overview={goals.data} />
        ) : (
          <EmptyState Icon={Target} compact>
            No goals yet. Set them with your dietitian: a target weight and date, waist, water, steps or a habit.
          </EmptyState>
        )}
        {chart && weights.data && weights.data.length > 0 && (
          <WeightChart
            entries={weights.data}
            target={current?.targetWeightKg != null ? { weight: current.targetWeightKg, date: current.targetDate } : null}
          />
        )}
      </div>
    </Card>
  );
}

function Meter({ label, value, detail, percent }: { label: string; value: string; detail?: string; percent?: number | null }) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 p-3">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="text-lg font-semibold text-slate-900">{value}</p>
      {percent != null && (
        <div
          className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label={`${label}: ${percent}% of the way`}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
        </div>
      )}
      {detail && <p className="mt-1 text-sm text-slate-600">{detail}</p>}
    </div>
  );
}

function GoalsSummary({ overview }: { overview: Overview }) {
  const g = overview.current!;
  const p = overview.progress;
  const days = p.daysLeft;
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 xs:grid-cols-2 lg:grid-cols-3" data-testid="goals-summary">
        {g.targetWeightKg !== null && (
          <Meter
            label="Target weight"
            value={`${kg(g.targetWeightKg)} by ${formatDay(g.targetDate)}`}
            percent={p.weightPercent}
            detail={
              p.latestWeightKg !== null
                ? `Now ${kg(p.latestWeightKg)}${p.startWeightKg !== null ? ` (from ${kg(p.startWeightKg)})` : ''}${
                    days !== null ? (days >= 0 ? `, ${days} ${days === 1 ? 'day' : 'days'} left` : ', target date passed') : ''
                  }`
                : 'Add a weigh-in to see progress'
            }
          />
        )}
        {g.waistCm !== null && (
          <Meter
            label="Waist"
            value={`${g.waistCm} cm`}
            detail={p.latestWaistCm !== null ? `Last measured ${p.latestWaistCm} cm` : 'Add a measurement to see progress'}
          />
        )}
        {g.waterGlasses !== null && <Meter label="Water" value={`${g.waterGlasses} glasses a day`} />}
        {g.steps !== null && <Meter label="Steps" value={`${g.steps.toLocaleString('en-IN')} a day`} />}
        {g.habit !== null && <Meter label="Habit" value={g.habit} />}
      </div>
      <p className="text-sm text-slate-600">
        Set {g.setBy ? `by ${g.setBy} ` : ''}on {formatDay(g.createdAt.toISOString())}.
      </p>
    </div>
  );
}

const EMPTY = { targetWeightKg: '', targetDate: '', waistCm: '', waterGlasses: '', steps: '', habit: '' };

function GoalsForm({ clientId, current, onDone }: { clientId?: number; current: Overview['current']; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.careRecord.goals.create.mutationOptions());
  const str = (v: number | string | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const form = useRecordForm(goalsForm, {
    ...EMPTY,
    ...(current && {
      targetWeightKg: str(current.targetWeightKg),
      targetDate: str(current.targetDate),
      waistCm: str(current.waistCm),
      waterGlasses: str(current.waterGlasses),
      steps: str(current.steps),
      habit: str(current.habit),
    }),
  });
  const field = (name: keyof typeof EMPTY, label: string, props: Record<string, unknown> = {}) => (
    <TextField
      id={`goal-${name}`}
      label={label}
      value={form.values[name]}
      error={form.errors[name]}
      onChange={(e) => form.set(name, e.target.value)}
      {...props}
    />
  );
  return (
    <form
      method="post"
      className="flex flex-col gap-4"
      data-testid="goals-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const ok = await form.submit((values, clientRequestId) => create.mutateAsync({ ...values, clientId, clientRequestId } as never));
        if (ok) {
          toast.success('Goals saved.');
          await queryClient.invalidateQueries({ queryKey: trpc.careRecord.goals.get.queryKey() });
          onDone();
        }
      }}
    >
      <div className="grid gap-4 xs:grid-cols-2">
        {field('targetWeightKg', 'Target weight (kg)', { inputMode: 'decimal' })}
        {field('targetDate', 'Reach it by', { type: 'date' })}
        {field('waistCm', 'Target waist (cm)', { inputMode: 'decimal' })}
        {field('waterGlasses', 'Water (glasses a day)', { inputMode: 'numeric' })}
        {field('steps', 'Steps a day', { inputMode: 'numeric' })}
        {field('habit', 'A habit, in words', { placeholder: 'e.g. A 15-minute walk after dinner' })}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={form.busy}>
          Save goals
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

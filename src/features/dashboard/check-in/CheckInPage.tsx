import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { CalendarCheck, ClipboardCheck, MessageSquareReply, PauseCircle } from 'lucide-react';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import type { z } from 'zod';
import { ADHERENCE_LABELS, CHECK_IN_NOTES_MAX, type CheckIn, checkInForm, type NextCheckIn } from '../../../../server/check-in/schema';
import { useLoadingOverlay } from '../../../components/LoadingOverlay';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextAreaField, TextField } from '../../../components/ui/Field';
import { Page } from '../../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../../components/ui/States';
import { localToday } from '../../../lib/format';
import { keyForBody, type SubmissionKey } from '../../../lib/request-key';
import { toastError } from '../../../lib/notify';
import { sendOrQueue, useQueued } from '../../../lib/offline-queue';
import { useSessionInfo } from '../../../lib/use-session';
import type { CheckInPayload } from '../offline/queued';
import { WaitingList } from '../offline/WaitingList';
import { useTRPC } from '../../../lib/trpc';
import { formatFollowUpDay, useSignedInToken } from '../../../lib/use-live-reload';

type FormInput = z.input<typeof checkInForm>;
type FormValues = z.output<typeof checkInForm>;

export const CHECK_IN_SENT = 'Check-in sent. Your dietitian will reply soon.';
export const CHECK_IN_QUEUED = 'You are offline: your check-in is saved on this device and will be sent when you are back online.';
const ADHERENCE_STEPS = Object.entries(ADHERENCE_LABELS).map(([value, label]) => ({ value: Number(value), label }));

/** When the next check-in is due, the form, and past check-ins with the dietitian's replies (live). */
export function CheckInPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery({ ...trpc.checkIn.list.queryOptions({}), staleTime: 0 });
  const token = useSignedInToken();
  useSubscription(
    trpc.checkIn.events.subscriptionOptions(undefined, {
      enabled: token !== null,
      // 'ready' (a fresh or resumed subscription), a reply, a pause or resume: reload.
      onData: () => void queryClient.invalidateQueries({ queryKey: trpc.checkIn.list.queryKey() }),
    }),
  );

  return (
    <Page title="Check-in" lead="Tell your dietitian how the plan is going: it takes a minute." width="max-w-3xl">
      {overview.isPending ? (
        <Loading label="Loading your check-ins" />
      ) : overview.isError ? (
        <LoadError error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="flex flex-col gap-5">
          <NextDue next={overview.data.next} />
          <CheckInFormCard />
          <History items={overview.data.history} />
        </div>
      )}
    </Page>
  );
}

function NextDue({ next }: { next: NextCheckIn }) {
  const today = localToday();
  const [Icon, text, tone] =
    next.state === 'paused'
      ? [
          PauseCircle,
          `Your plan is paused since ${formatFollowUpDay(next.pausedSince!)}: no check-in is due.`,
          'bg-amber-50 text-amber-900',
        ]
      : next.state === 'no-plan'
        ? [CalendarCheck, 'Check-ins are scheduled while you are on a plan. You can still send one any time.', 'bg-slate-50 text-slate-800']
        : next.state === 'overdue'
          ? [CalendarCheck, `Your check-in was due on ${formatFollowUpDay(next.dueDate!)}. Please send it today.`, 'bg-red-50 text-red-900']
          : next.dueDate === today || next.state === 'due'
            ? [CalendarCheck, 'Your check-in is due today.', 'bg-brand-50 text-brand-900']
            : [CalendarCheck, `Your next check-in is due on ${formatFollowUpDay(next.dueDate!)}.`, 'bg-brand-50 text-brand-900'];
  return (
    <div className={`flex items-start gap-3 rounded-2xl px-4 py-3 sm:px-5 ${tone}`} data-testid="next-check-in">
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
      <p className="font-semibold">
        {text}
        {next.everyDays && next.state !== 'paused' ? (
          <span className="block text-sm font-normal">Check-ins on your plan are every {next.everyDays} days.</span>
        ) : null}
      </p>
    </div>
  );
}

function CheckInFormCard() {
  const overlay = useLoadingOverlay();
  const userId = useSessionInfo()?.id ?? null;
  const waiting = useQueued<CheckInPayload>(userId, 'check-in');
  const form = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(checkInForm),
    defaultValues: { weight: '', adherence: undefined, notes: '' },
  });
  const { errors } = form.formState;
  const notes = form.watch('notes') ?? '';

  const attempt = useRef<SubmissionKey | null>(null);

  const onSubmit = form.handleSubmit(async (values) => {
    // The same check-in sent again (after a lost answer) keeps its key, so the server returns the first instead of storing a second.
    attempt.current = keyForBody(attempt.current, values);
    if (userId === null) return;
    try {
      // Without a connection it waits on this device with its key and goes when back online (never twice).
      const key = attempt.current.key;
      const outcome = await overlay.run(
        sendOrQueue<CheckInPayload>(userId, 'check-in', key, { ...values, date: localToday(), clientRequestId: key }),
      );
      attempt.current = null;
      if (outcome === 'sent') toast.success(CHECK_IN_SENT);
      else toast.info(CHECK_IN_QUEUED);
      form.reset();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Card className="p-5 sm:p-8">
      <h2 className="mb-4 text-lg font-bold text-slate-900">Today’s check-in</h2>
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <TextField
          label="Today’s weight (kg)"
          type="number"
          inputMode="decimal"
          step="0.1"
          min="1"
          max="500"
          placeholder="e.g., 70.5"
          hint="Also saved in your weight history."
          error={errors.weight?.message}
          {...form.register('weight')}
        />
        <fieldset aria-describedby={errors.adherence ? 'adherence-error' : undefined}>
          <legend className="text-sm font-medium text-slate-800">How closely did you follow your plan?</legend>
          <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-5">
            {ADHERENCE_STEPS.map((step) => (
              <label
                key={step.value}
                className="flex cursor-pointer items-center gap-3 rounded-xl border border-slate-200 px-3 py-2.5 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 sm:flex-col sm:gap-1 sm:text-center"
              >
                <input type="radio" value={step.value} className="h-4 w-4 accent-brand-700 sm:order-last" {...form.register('adherence')} />
                <span className="text-xl font-extrabold text-slate-900 tabular-nums">{step.value}</span>
                <span className="text-sm text-slate-700">{step.label}</span>
              </label>
            ))}
          </div>
          {errors.adherence && (
            <p id="adherence-error" role="alert" className="mt-1 text-sm text-red-700">
              {errors.adherence.message}
            </p>
          )}
        </fieldset>
        <TextAreaField
          label="Notes for your dietitian (optional)"
          rows={4}
          maxLength={CHECK_IN_NOTES_MAX}
          placeholder="Cravings, energy, sleep, anything that made the week easier or harder…"
          hint={`${notes.length.toLocaleString('en-IN')} / ${CHECK_IN_NOTES_MAX.toLocaleString('en-IN')} characters`}
          error={errors.notes?.message}
          {...form.register('notes')}
        />
        <Button type="submit" size="lg">
          Send check-in
        </Button>
      </form>
      {userId !== null && (
        <WaitingList
          userId={userId}
          items={waiting}
          label="Waiting to send"
          describe={(p) => `Check-in of ${formatFollowUpDay(p.date ?? localToday())}, ${p.weight} kg`}
        />
      )}
    </Card>
  );
}

function History({ items }: { items: CheckIn[] }) {
  return (
    <section aria-labelledby="check-in-history">
      <h2 id="check-in-history" className="mb-3 text-lg font-bold text-slate-900">
        Your check-ins
      </h2>
      {items.length === 0 ? (
        <Card>
          <EmptyState Icon={ClipboardCheck} testId="check-ins-empty">
            No check-ins yet. Your first one starts the conversation.
          </EmptyState>
        </Card>
      ) : (
        <ol className="flex flex-col gap-3" data-testid="check-in-history">
          {items.map((c) => (
            <li key={c.id}>
              <Card className="p-4 sm:p-5">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="font-bold text-slate-900">{formatFollowUpDay(c.date)}</p>
                  <p className="text-sm text-slate-700">
                    <span className="font-semibold tabular-nums">{c.weight} kg</span> · followed the plan: {c.adherence}/5,{' '}
                    {ADHERENCE_LABELS[c.adherence as keyof typeof ADHERENCE_LABELS].toLowerCase()}
                  </p>
                </div>
                {c.notes && <p className="mt-2 whitespace-pre-wrap text-slate-700">{c.notes}</p>}
                {c.reply ? (
                  <div className="mt-3 rounded-xl border-l-4 border-brand-600 bg-brand-50 px-4 py-3" data-testid="check-in-reply">
                    <p className="flex items-center gap-2 text-sm font-semibold text-brand-900">
                      <MessageSquareReply className="h-4 w-4" aria-hidden="true" />
                      {c.repliedBy ?? 'Your dietitian'} replied
                    </p>
                    <p className="mt-1 whitespace-pre-wrap text-slate-800">{c.reply}</p>
                  </div>
                ) : (
                  <p className="mt-3 text-sm text-slate-500">Awaiting your dietitian’s reply.</p>
                )}
              </Card>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

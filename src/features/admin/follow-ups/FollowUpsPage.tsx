import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { ClipboardCheck, MessageSquareReply, Pause, Play } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { Link, useSearch } from 'wouter';
import type { z } from 'zod';
import type { FollowUpRow, FollowUpView } from '../../../../server/check-in/schema';
import {
  ADHERENCE_LABELS,
  CHECK_IN_REPLY_MAX,
  FOLLOW_UP_VIEWS,
  followUpViewHref,
  pauseForm,
  replyForm,
} from '../../../../server/check-in/schema';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { TextAreaField, TextField } from '../../../components/ui/Field';
import { Modal } from '../../../components/ui/Modal';
import { localToday } from '../../../lib/format';
import { toastError } from '../../../lib/notify';
import { useTRPC } from '../../../lib/trpc';
import { formatFollowUpDay, useSignedInToken } from '../../../lib/use-live-reload';
import { WeightChart } from '../../../components/charts/WeightChart';
import { Badge, EmptyState, LoadError, Loading, Page } from '../ui';
import { JournalAdherence } from '../../journal/JournalAdherence';
import { byIntake, INTAKE_ORDER_KEYS, INTAKE_ORDERS, type IntakeOrder } from '../../journal/intake-order';

/**
 * Every client on a running plan, overdue first, then due today,
 * then upcoming (the server orders them). Live: a check-in, reply, pause or
 * resume anywhere reloads the queue, so it re-orders without a reload.
 */
export function FollowUpsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const queue = useQuery({ ...trpc.admin.followUps.queue.queryOptions(), staleTime: 0 });
  const token = useSignedInToken();
  const [live, setLive] = useState(false);
  const show = new URLSearchParams(useSearch()).get('show');
  const view = show !== null && show in FOLLOW_UP_VIEWS ? (show as FollowUpView) : null;
  useSubscription(
    trpc.admin.followUps.events.subscriptionOptions(undefined, {
      enabled: token !== null,
      onStarted: () => setLive(false),
      onData: (event) => {
        if (event.kind === 'ready') setLive(true);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.followUps.queue.queryKey() });
      },
      onError: () => setLive(false),
    }),
  );

  return (
    <Page
      title="Follow-ups"
      lead="Clients on a running plan: overdue first, then due today, then upcoming."
      actions={
        <span className="inline-flex items-center gap-2 text-sm text-slate-600" data-testid="follow-ups-live">
          <span className={`h-2.5 w-2.5 rounded-full ${live ? 'bg-green-500' : 'bg-slate-300'}`} aria-hidden="true" />
          {live ? 'Live' : 'Connecting…'}
        </span>
      }
    >
      {queue.isPending ? (
        <Loading label="Loading the follow-up queue" />
      ) : queue.isError ? (
        <LoadError error={queue.error} onRetry={() => void queue.refetch()} />
      ) : (
        <FollowUpList rows={queue.data.rows} view={view} />
      )}
      <p className="mt-4 text-sm text-slate-600" data-testid="follow-ups-legend">
        “Last contact” counts every channel: a check-in she sent or your reply, a message from the team, a comment on her journal, a session
        marked done. Her own message alone does not count until someone answers it. Each contact starts the count to her next check-in
        again, and reminder mails follow it.
      </p>
    </Page>
  );
}

/** The queue, or the part of it one view shows (the Overview links here with ?show=…). */
function FollowUpList({ rows, view }: { rows: FollowUpRow[]; view: FollowUpView | null }) {
  const [order, setOrder] = useState<IntakeOrder>('due');
  const shown = byIntake(view === null ? rows : rows.filter(FOLLOW_UP_VIEWS[view].includes), order);
  const views = Object.entries(FOLLOW_UP_VIEWS) as Array<[FollowUpView, (typeof FOLLOW_UP_VIEWS)[FollowUpView]]>;
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label="Show" className="flex flex-wrap gap-2" data-testid="follow-up-views">
        {[
          ['/follow-ups', 'All', view === null] as const,
          ...views.map(([key, v]) => [followUpViewHref(key), v.label, view === key] as const),
        ].map(([href, label, current]) => (
          <Link
            key={href}
            href={href}
            aria-current={current ? 'page' : undefined}
            className={`rounded-full border px-3 py-1 text-sm font-medium ${current ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-200 bg-white text-slate-700 hover:border-brand-300'}`}
          >
            {label}
          </Link>
        ))}
      </nav>
      <label className="flex items-center gap-2 self-start text-sm text-slate-700">
        Order
        <select
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm"
          value={order}
          onChange={(e) => setOrder(e.target.value as IntakeOrder)}
          data-testid="follow-up-order"
        >
          {INTAKE_ORDER_KEYS.map((key) => (
            <option key={key} value={key}>
              {INTAKE_ORDERS[key].label}
            </option>
          ))}
        </select>
      </label>
      {rows.length === 0 ? (
        <EmptyState Icon={ClipboardCheck}>No client is on a running plan.</EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState Icon={ClipboardCheck}>{`No client is ${FOLLOW_UP_VIEWS[view!].label.toLowerCase()} right now.`}</EmptyState>
      ) : (
        <ol className="flex flex-col gap-3" data-testid="follow-up-queue">
          {shown.map((row) => (
            <li key={row.clientId} data-testid="follow-up-row">
              <FollowUpCard row={row} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function StateBadge({ row }: { row: FollowUpRow }) {
  if (row.state === 'overdue') return <Badge tone="red">{`Overdue ${row.daysOverdue} ${row.daysOverdue === 1 ? 'day' : 'days'}`}</Badge>;
  if (row.state === 'due') return <Badge tone="amber">Due today</Badge>;
  if (row.state === 'paused') return <Badge tone="slate">{`Paused since ${formatFollowUpDay(row.pausedSince!)}`}</Badge>;
  return <Badge tone="teal">{`Due ${formatFollowUpDay(row.dueDate!)}`}</Badge>;
}

function FollowUpCard({ row }: { row: FollowUpRow }) {
  const last = row.lastCheckIn;
  const [dialog, setDialog] = useState<'reply' | 'pause' | null>(null);
  return (
    <Card className="p-4 sm:p-5">
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)] lg:items-center">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <Link href={`/clients/${row.clientId}`} className="text-lg font-bold text-slate-900 hover:underline">
              {row.name}
            </Link>
            <StateBadge row={row} />
            {row.intakeMissing && <Badge tone="amber">Intake missing</Badge>}
          </div>
          <p className="mt-0.5 text-sm text-slate-600">
            {row.planName} · every {row.everyDays} days · ends {formatFollowUpDay(row.endDate)}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {row.daysSinceContact === null
              ? 'No contact yet'
              : row.daysSinceContact === 0
                ? 'Last contact today'
                : `Last contact ${row.daysSinceContact} ${row.daysSinceContact === 1 ? 'day' : 'days'} ago`}
          </p>
          <JournalAdherence journal={row.journal} />
        </div>
        <div className="min-w-0 text-sm" data-testid="follow-up-last-check-in">
          {last ? (
            <>
              <p className="font-semibold text-slate-900">
                Last check-in {formatFollowUpDay(last.date)}: <span className="tabular-nums">{last.weight} kg</span>
              </p>
              <p className="text-slate-700">
                Followed the plan {last.adherence}/5 ({ADHERENCE_LABELS[last.adherence as keyof typeof ADHERENCE_LABELS].toLowerCase()})
              </p>
              {last.notes && <p className="mt-1 line-clamp-2 text-slate-600">“{last.notes}”</p>}
              {last.reply && <p className="mt-1 text-brand-800">Replied</p>}
            </>
          ) : (
            <p className="text-slate-600">No check-in yet</p>
          )}
        </div>
        <div className="min-w-0">
          <WeightChart entries={row.weights} size="compact" empty="No weights recorded yet." />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2 border-t border-slate-100 pt-3">
        {last && !last.reply && (
          <Button size="sm" onClick={() => setDialog('reply')}>
            <MessageSquareReply className="h-4 w-4" aria-hidden="true" />
            Reply
          </Button>
        )}
        {row.state === 'paused' ? (
          <ResumeButton row={row} />
        ) : (
          <Button size="sm" variant="secondary" onClick={() => setDialog('pause')}>
            <Pause className="h-4 w-4" aria-hidden="true" />
            Pause plan
          </Button>
        )}
      </div>
      {last && <ReplyDialog open={dialog === 'reply'} onClose={() => setDialog(null)} row={row} checkInId={last.id} />}
      <PauseDialog open={dialog === 'pause'} onClose={() => setDialog(null)} row={row} />
    </Card>
  );
}

/** After a change, reload the queue at once (the live event reloads it too, on every open console). */
function useRefreshQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.followUps.queue.queryKey() });
}

/**
 * Runs one change to the queue: its message as a toast, then `done` (closing a
 * dialog) and the queue read again; a refusal as a toast, the dialog left open.
 */
function useQueueChange() {
  const refresh = useRefreshQueue();
  return async (send: () => Promise<{ message: string }>, done?: () => void) => {
    try {
      const res = await send();
      toast.success(res.message);
      done?.();
      void refresh();
    } catch (error) {
      toastError(error);
    }
  };
}

/** A queue action's dialog: its form, then Cancel and the submit button. */
function QueueDialog({
  open,
  onClose,
  title,
  description,
  onSubmit,
  busy,
  submit,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  submit: string;
  children: ReactNode;
}) {
  return (
    <Modal open={open} onOpenChange={(o) => !o && onClose()} title={title} description={description}>
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {children}
        <div className="flex justify-end gap-3">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {submit}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ReplyDialog({ open, onClose, row, checkInId }: { open: boolean; onClose: () => void; row: FollowUpRow; checkInId: number }) {
  const trpc = useTRPC();
  const change = useQueueChange();
  const reply = useMutation(trpc.admin.followUps.reply.mutationOptions());
  const form = useForm<z.input<typeof replyForm>, unknown, z.output<typeof replyForm>>({
    resolver: zodResolver(replyForm),
    defaultValues: { reply: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    change(
      () => reply.mutateAsync({ ...values, checkInId }),
      () => {
        form.reset();
        onClose();
      },
    ),
  );
  return (
    <QueueDialog
      open={open}
      onClose={onClose}
      title={`Reply to ${row.name}`}
      description="The reply shows on the client’s Check-in page and is mailed to them."
      onSubmit={onSubmit}
      busy={reply.isPending}
      submit="Send reply"
    >
      <TextAreaField
        label="Reply"
        rows={5}
        maxLength={CHECK_IN_REPLY_MAX}
        error={form.formState.errors.reply?.message}
        {...form.register('reply')}
      />
    </QueueDialog>
  );
}

function PauseDialog({ open, onClose, row }: { open: boolean; onClose: () => void; row: FollowUpRow }) {
  const trpc = useTRPC();
  const change = useQueueChange();
  const pause = useMutation(trpc.admin.followUps.pause.mutationOptions());
  const form = useForm<z.input<typeof pauseForm>, unknown, z.output<typeof pauseForm>>({
    resolver: zodResolver(pauseForm),
    defaultValues: { from: localToday(), reason: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    change(() => pause.mutateAsync({ ...values, subscriptionId: row.subscriptionId }), onClose),
  );
  return (
    <QueueDialog
      open={open}
      onClose={onClose}
      title={`Pause ${row.planName}`}
      description={`No check-ins are due for ${row.name} while paused; resuming adds the paused days to the end date.`}
      onSubmit={onSubmit}
      busy={pause.isPending}
      submit="Pause plan"
    >
      <TextField
        label="Paused from"
        type="date"
        max={localToday()}
        error={form.formState.errors.from?.message}
        {...form.register('from')}
      />
      <TextField label="Reason (optional)" error={form.formState.errors.reason?.message} {...form.register('reason')} />
    </QueueDialog>
  );
}

function ResumeButton({ row }: { row: FollowUpRow }) {
  const trpc = useTRPC();
  const change = useQueueChange();
  const resume = useMutation(trpc.admin.followUps.resume.mutationOptions());
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={resume.isPending}
      onClick={() => change(() => resume.mutateAsync({ subscriptionId: row.subscriptionId }))}
    >
      <Play className="h-4 w-4" aria-hidden="true" />
      Resume plan
    </Button>
  );
}

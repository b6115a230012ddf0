import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck2, CalendarPlus, Clock, Video } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import {
  APPOINTMENT_KIND_LABELS,
  type AppointmentView,
  CLIENT_CHANGE_HOURS,
  CLIENT_GRACE_MINUTES,
  type EntitlementView,
  periodStartOf,
  type SlotView,
} from '../../../server/appointments/schema';
import { Button, buttonClasses } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { Modal } from '../../components/ui/Modal';
import { Page } from '../../components/ui/Page';
import { EmptyState, LoadError, Loading } from '../../components/ui/States';
import { errorMessage } from '../../lib/errors';
import { toastError } from '../../lib/notify';
import { newRequestKey } from '../../lib/request-key';
import { toast } from '../../lib/toast';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { SlotPicker } from './SlotPicker';
import { dayLabel, isIndia, nextSlotsOf, viewerTimeZone } from './slots';
import { useLiveAppointments } from './use-live-appointments';

/**
 * A client's appointments: what the plan still includes this month, the upcoming sessions with
 * their call page, moving and cancelling (until 12 hours before), and booking a follow-up from the free
 * slots in the client's own time zone, with India time beside it.
 */
export function AppointmentsPage() {
  const trpc = useTRPC();
  const tz = viewerTimeZone();
  useLiveAppointments();
  const list = useQuery({ ...trpc.appointments.list.queryOptions({ tz }), staleTime: 0 });
  const entitlement = list.data?.entitlement;
  return (
    <Page title="Appointments" lead="Video follow-ups with your dietitian: book, move or cancel a session." width="max-w-3xl">
      {list.isPending ? (
        <Loading label="Loading your appointments" />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="flex flex-col gap-6">
          {entitlement && <Entitlement entitlement={entitlement} />}
          <section aria-labelledby="upcoming-heading">
            <h2 id="upcoming-heading" className="mb-3 text-lg font-bold text-slate-900">
              Upcoming
            </h2>
            {list.data.upcoming.length === 0 ? (
              <Card>
                <EmptyState Icon={CalendarCheck2} compact testId="no-appointments">
                  No sessions booked yet.
                </EmptyState>
              </Card>
            ) : (
              <ul className="flex flex-col gap-3">
                {list.data.upcoming.map((a) => (
                  <UpcomingItem key={a.id} appointment={a} timeZone={tz} />
                ))}
              </ul>
            )}
          </section>
          {entitlement && entitlement.rule !== 'none' && <BookFollowUp timeZone={tz} entitlement={entitlement} />}
          {list.data.past.length > 0 && (
            <section aria-labelledby="past-heading">
              <h2 id="past-heading" className="mb-3 text-lg font-bold text-slate-900">
                Past and cancelled
              </h2>
              <Card>
                <ul className="divide-y divide-slate-100">
                  {list.data.past.map((a) => (
                    <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                      <span className="text-slate-700">
                        {APPOINTMENT_KIND_LABELS[a.kind]} · {dayLabel(a.local.date)} {a.local.time}
                      </span>
                      <StatusPill status={a.status} />
                    </li>
                  ))}
                </ul>
              </Card>
            </section>
          )}
        </div>
      )}
    </Page>
  );
}

function Entitlement({ entitlement }: { entitlement: EntitlementView }) {
  if (entitlement.rule === 'none') {
    return (
      <Card className="p-5">
        <p className="text-slate-700">Follow-up sessions come with a running plan. Once your plan starts, you can book them here.</p>
      </Card>
    );
  }
  const weekly = entitlement.period === 'week';
  const rule = weekly
    ? 'Your plan includes one follow-up a week, Monday to Sunday (India time).'
    : 'Your plan includes two follow-ups a calendar month.';
  return (
    <Card className="flex flex-wrap items-center justify-between gap-4 p-5">
      <div>
        <p className="text-sm text-slate-600">{entitlement.planName}</p>
        <p className="text-slate-700">{rule}</p>
        {entitlement.periodStart && entitlement.periodEnd && (
          <p className="text-sm text-slate-600">
            {weekly ? 'This week' : 'This month'}: {dayLabel(entitlement.periodStart)} – {dayLabel(entitlement.periodEnd)}
          </p>
        )}
      </div>
      <p className="text-right">
        <span className="block text-3xl font-extrabold text-brand-800" data-testid="left-this-period">
          {entitlement.leftThisPeriod}
        </span>
        <span className="text-sm text-slate-600">left this {weekly ? 'week' : 'month'}</span>
      </p>
    </Card>
  );
}

const STATUS_TONES: Record<AppointmentView['status'], string> = {
  booked: 'bg-brand-50 text-brand-800',
  done: 'bg-slate-100 text-slate-700',
  cancelled: 'bg-red-50 text-red-700',
  no_show: 'bg-amber-50 text-amber-800',
};
const STATUS_WORDS: Record<AppointmentView['status'], string> = {
  booked: 'Booked',
  done: 'Done',
  cancelled: 'Cancelled',
  no_show: 'Missed',
};

function StatusPill({ status }: { status: AppointmentView['status'] }) {
  return <span className={`rounded-full px-3 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}>{STATUS_WORDS[status]}</span>;
}

function WhenText({ a, timeZone }: { a: AppointmentView; timeZone: string }) {
  return (
    <>
      <span className="font-semibold text-slate-900">
        {dayLabel(a.local.date, { weekday: 'long' })}, {a.local.time}
      </span>
      {!isIndia(timeZone) && (
        <span className="text-sm text-slate-500">
          {' '}
          · India {a.india.time}
          {a.india.date !== a.local.date ? ` (${dayLabel(a.india.date)})` : ''}
        </span>
      )}
    </>
  );
}

function UpcomingItem({ appointment: a, timeZone }: { appointment: AppointmentView; timeZone: string }) {
  const client = useTRPCClient();
  const [moving, setMoving] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const downloadIcs = async () => {
    try {
      const file = await client.appointments.ics.query({ id: a.id });
      const url = URL.createObjectURL(new Blob([file.content], { type: 'text/calendar' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <li data-testid="upcoming-appointment">
      <Card className="flex flex-col gap-3 p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-800">{APPOINTMENT_KIND_LABELS[a.kind]}</p>
            <p>
              <WhenText a={a} timeZone={timeZone} />
            </p>
            <p className="text-sm text-slate-600">With {a.dietitianName}</p>
          </div>
          <StatusPill status={a.status} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`~${a.callPath}`} className={buttonClasses('primary', 'sm')}>
            <Video className="h-4 w-4" aria-hidden="true" />
            Call page
          </Link>
          <Button variant="secondary" size="sm" onClick={() => void downloadIcs()}>
            <CalendarPlus className="h-4 w-4" aria-hidden="true" />
            Add to calendar
          </Button>
          {a.canChange && (
            <>
              <Button variant="ghost" size="sm" onClick={() => setMoving(true)}>
                Move
              </Button>
              <Button variant="ghost" size="sm" className="text-red-700" onClick={() => setCancelling(true)}>
                Cancel
              </Button>
            </>
          )}
        </div>
        {a.status === 'booked' && <ChangeRule appointment={a} timeZone={timeZone} />}
      </Card>
      {moving && <MoveDialog appointment={a} timeZone={timeZone} onClose={() => setMoving(false)} />}
      {cancelling && <CancelDialog appointment={a} onClose={() => setCancelling(false)} />}
    </li>
  );
}

const timeIn = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hour12: false }).format(at);

/** Why the session can or cannot be changed now: the 12-hour rule, or the few minutes after booking one inside it. */
function ChangeRule({ appointment: a, timeZone }: { appointment: AppointmentView; timeZone: string }) {
  const ruleEnds = a.start.getTime() - CLIENT_CHANGE_HOURS * 3_600_000;
  const inGrace = a.canChange && a.changeableUntil.getTime() > ruleEnds;
  if (a.canChange && !inGrace) return null;
  return (
    <p className="flex items-start gap-1.5 text-sm text-slate-600" data-testid="change-rule">
      <Clock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      {inGrace
        ? `Booked less than ${CLIENT_CHANGE_HOURS} hours ahead: you can still move or cancel it until ${timeIn(a.changeableUntil, timeZone)}. After that, message your dietitian to change it.`
        : `Less than ${CLIENT_CHANGE_HOURS} hours to go: sessions can be moved or cancelled until ${CLIENT_CHANGE_HOURS} hours before they start. To change it now, message your dietitian.`}
    </p>
  );
}

/** Whether a slot is inside the 12 hours in which only the dietitian changes a session. */
const soon = (slot: SlotView) => slot.start.getTime() - Date.now() < CLIENT_CHANGE_HOURS * 3_600_000;

function useFollowUpSlots(timeZone: string) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.appointments.slots.queryOptions({ kind: 'follow_up', tz: timeZone }), staleTime: 0 });
}

function BookFollowUp({ timeZone, entitlement }: { timeZone: string; entitlement: EntitlementView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const slots = useFollowUpSlots(timeZone);
  const period = entitlement.period ?? 'week';
  const full = new Set(entitlement.fullPeriods);
  // Times in a week (or month) whose follow-ups are all booked cannot be booked: they are not offered.
  const open = (slots.data?.slots ?? []).filter((s) => !full.has(periodStartOf(s.india.date, period)));
  const thisOneFull = entitlement.periodStart !== null && full.has(entitlement.periodStart);
  const disabled = slots.isSuccess && open.length === 0 && full.size > 0;
  const [picked, setPicked] = useState<SlotView | null>(null);
  const [offered, setOffered] = useState<SlotView[] | null>(null);
  const [key, setKey] = useState(newRequestKey);
  const book = useMutation(trpc.appointments.book.mutationOptions());
  const submit = async () => {
    if (!picked) return;
    try {
      await book.mutateAsync({ start: picked.start, kind: 'follow_up', clientRequestId: key, tz: timeZone });
      toast.success('Booked. A calendar invitation is on its way by e-mail.');
      setPicked(null);
      setOffered(null);
      setKey(newRequestKey());
      await queryClient.invalidateQueries({ queryKey: trpc.appointments.pathKey() });
    } catch (error) {
      const next = nextSlotsOf(error);
      if (next) {
        setOffered(next);
        setPicked(null);
        setKey(newRequestKey());
        void slots.refetch();
      }
      toast.error(errorMessage(error));
    }
  };
  return (
    <section aria-labelledby="book-heading">
      <h2 id="book-heading" className="mb-3 text-lg font-bold text-slate-900">
        Book a follow-up
      </h2>
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        {disabled ? (
          <p className="text-slate-700" data-testid="all-booked">
            Your follow-ups are booked for every {period} you can book now (up to four weeks ahead). More times open as the weeks go by.
          </p>
        ) : slots.isPending ? (
          <Loading label="Loading free times" compact />
        ) : slots.isError ? (
          <LoadError error={slots.error} onRetry={() => void slots.refetch()} compact />
        ) : (
          <>
            {offered && (
              <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" role="status">
                That time was just taken. These are the next free ones.
              </p>
            )}
            {thisOneFull && entitlement.periodEnd && (
              <p className="text-sm text-slate-600" data-testid="period-booked">
                This {period}’s follow-up{entitlement.perPeriod > 1 ? 's are' : ' is'} booked. The times below are from{' '}
                {dayLabel(periodStartOf(open[0]?.india.date ?? entitlement.periodEnd, period))} on
                {full.size > 1 ? `, leaving out the other ${period}s already booked` : ''}.
              </p>
            )}
            <SlotPicker slots={offered ?? open} timeZone={timeZone} value={picked?.start ?? null} onChange={setPicked} />
            {picked && soon(picked) && (
              <p className="text-sm text-slate-600" data-testid="soon-note">
                This time is less than {CLIENT_CHANGE_HOURS} hours away: once booked, you can move or cancel it for {CLIENT_GRACE_MINUTES}{' '}
                minutes; after that, only your dietitian can.
              </p>
            )}
            <div className="flex justify-end">
              <Button onClick={() => void submit()} disabled={!picked || book.isPending} data-testid="book-slot">
                {picked ? `Book ${dayLabel(picked.local.date)}, ${picked.local.time}` : 'Pick a time'}
              </Button>
            </div>
          </>
        )}
      </Card>
    </section>
  );
}

function MoveDialog({ appointment, timeZone, onClose }: { appointment: AppointmentView; timeZone: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const slots = useFollowUpSlots(timeZone);
  const [picked, setPicked] = useState<SlotView | null>(null);
  const move = useMutation(trpc.appointments.reschedule.mutationOptions());
  const submit = async () => {
    if (!picked) return;
    try {
      await move.mutateAsync({ id: appointment.id, start: picked.start, tz: timeZone });
      toast.success('Moved. A new calendar invitation is on its way.');
      await queryClient.invalidateQueries({ queryKey: trpc.appointments.pathKey() });
      onClose();
    } catch (error) {
      toast.error(errorMessage(error));
      void slots.refetch();
    }
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Move this session"
      wide
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Keep it
          </Button>
          <Button onClick={() => void submit()} disabled={!picked || move.isPending}>
            Move here
          </Button>
        </div>
      }
    >
      {slots.isPending ? (
        <Loading label="Loading free times" compact />
      ) : slots.isError ? (
        <LoadError error={slots.error} onRetry={() => void slots.refetch()} compact />
      ) : (
        <SlotPicker
          slots={slots.data.slots}
          timeZone={timeZone}
          value={picked?.start ?? null}
          onChange={setPicked}
          label="Pick a new time"
        />
      )}
    </Modal>
  );
}

function CancelDialog({ appointment, onClose }: { appointment: AppointmentView; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const cancel = useMutation(trpc.appointments.cancel.mutationOptions());
  const submit = async () => {
    try {
      await cancel.mutateAsync({ id: appointment.id, reason: reason.trim() || null });
      toast.success('Cancelled.');
      await queryClient.invalidateQueries({ queryKey: trpc.appointments.pathKey() });
      onClose();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title="Cancel this session?"
      description={`${dayLabel(appointment.local.date, { weekday: 'long' })}, ${appointment.local.time} with ${appointment.dietitianName}`}
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Keep it
          </Button>
          <Button variant="danger" onClick={() => void submit()} disabled={cancel.isPending}>
            Cancel session
          </Button>
        </div>
      }
    >
      <label className="flex flex-col gap-1 text-sm font-semibold text-slate-800">
        Reason (optional)
        <textarea
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={1000}
          rows={3}
          className="rounded-lg border border-slate-300 p-2 font-normal"
        />
      </label>
    </Modal>
  );
}

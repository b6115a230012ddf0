import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, ChevronLeft, ChevronRight, Settings2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import {
  APPOINTMENT_KIND_LABELS,
  APPOINTMENT_STATUS_LABELS,
  type AppointmentView,
  type SlotView,
} from '../../../../server/appointments/schema';
import { Button, buttonClasses } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { Modal } from '../../../components/ui/Modal';
import { Page } from '../../../components/ui/Page';
import { LoadError, Loading } from '../../../components/ui/States';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toast';
import { useTRPC } from '../../../lib/trpc';
import { addDays, mondayOf, SERVICE_TIME_ZONE, serviceDay } from '../../../../server/time';
import { SlotPicker } from '../SlotPicker';
import { dayLabel } from '../slots';
import { useLiveAppointments } from '../use-live-appointments';
import { WaitingCallsNotice } from '../../calls/WaitingCallsNotice';

/** Today in India, 'YYYY-MM-DD'. */
const indiaToday = () => serviceDay(new Date());

export const STATUS_TONE: Record<AppointmentView['status'], string> = {
  booked: 'border-brand-300 bg-brand-50',
  done: 'border-slate-200 bg-slate-50',
  cancelled: 'border-red-200 bg-red-50/60 line-through decoration-red-400',
  no_show: 'border-amber-300 bg-amber-50',
};

/**
 * The console's week: every dietitian's appointments in India time, Monday to Sunday, one
 * column a day (stacked on a phone). A session opens its actions: mark done or no-show, move, cancel
 * with a message to the client.
 */
export function AppointmentsCalendarPage() {
  const trpc = useTRPC();
  const [from, setFrom] = useState(() => mondayOf(indiaToday()));
  const [dietitian, setDietitian] = useState<number | 'all'>('all');
  const [open, setOpen] = useState<AppointmentView | null>(null);
  useLiveAppointments();
  const week = useQuery({ ...trpc.admin.appointments.calendar.queryOptions({ from, days: 7 }), staleTime: 0 });
  const days = useMemo(() => Array.from({ length: 7 }, (_, i) => addDays(from, i)), [from]);
  const shown = (week.data?.appointments ?? []).filter((a) => dietitian === 'all' || a.dietitianId === dietitian);
  const today = indiaToday();
  return (
    <Page
      title="Appointments"
      lead="Every dietitian’s sessions this week, in India time."
      actions={
        <Link href="/appointments/availability" className={buttonClasses('secondary', 'sm')}>
          <Settings2 className="h-4 w-4" aria-hidden="true" />
          Availability
        </Link>
      }
    >
      <WaitingCallsNotice />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="secondary" size="sm" aria-label="Previous week" onClick={() => setFrom(addDays(from, -7))}>
            <ChevronLeft className="h-4 w-4" aria-hidden="true" />
          </Button>
          <p className="min-w-[11rem] text-center font-semibold text-slate-900" data-testid="week-label">
            {dayLabel(from)} – {dayLabel(addDays(from, 6))}
          </p>
          <Button variant="secondary" size="sm" aria-label="Next week" onClick={() => setFrom(addDays(from, 7))}>
            <ChevronRight className="h-4 w-4" aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setFrom(mondayOf(indiaToday()))}>
            This week
          </Button>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Dietitian
          <select
            className="rounded-lg border border-slate-300 bg-white px-2 py-1.5"
            value={String(dietitian)}
            onChange={(e) => setDietitian(e.target.value === 'all' ? 'all' : Number(e.target.value))}
          >
            <option value="all">All dietitians</option>
            {week.data?.dietitians.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {week.isPending ? (
        <Loading label="Loading the week" />
      ) : week.isError ? (
        <LoadError error={week.error} onRetry={() => void week.refetch()} />
      ) : (
        <div className="grid gap-3 lg:grid-cols-7" data-testid="week-calendar">
          {days.map((day) => {
            const list = shown.filter((a) => a.india.date === day);
            return (
              <Card key={day} className={`flex min-h-[7rem] flex-col gap-2 p-2 ${day === today ? 'ring-2 ring-brand-600' : ''}`}>
                <h2 className="px-1 text-sm font-bold text-slate-800">
                  {dayLabel(day)}
                  {day === today && <span className="ml-1 text-xs font-semibold text-brand-700">today</span>}
                </h2>
                {list.length === 0 ? (
                  <p className="px-1 text-xs text-slate-600">No sessions</p>
                ) : (
                  list.map((a) => (
                    <button
                      key={a.id}
                      type="button"
                      onClick={() => setOpen(a)}
                      data-testid="calendar-appointment"
                      className={`rounded-md border px-2 py-1.5 text-left text-xs transition-shadow hover:shadow ${STATUS_TONE[a.status]}`}
                    >
                      <span className="block font-bold text-slate-900">{a.india.time}</span>
                      <span className="block truncate text-slate-800">{a.personName}</span>
                      <span className="block truncate text-slate-500">
                        {APPOINTMENT_KIND_LABELS[a.kind]} · {a.dietitianName.split(' ')[0]}
                      </span>
                    </button>
                  ))
                )}
              </Card>
            );
          })}
        </div>
      )}
      {open && <AppointmentDialog appointment={open} onClose={() => setOpen(null)} />}
    </Page>
  );
}

export function AppointmentDialog({ appointment: a, onClose }: { appointment: AppointmentView; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'view' | 'move' | 'cancel'>('view');
  const [message, setMessage] = useState('');
  const [picked, setPicked] = useState<SlotView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.appointments.pathKey() });
  const mark = useMutation(trpc.admin.appointments.mark.mutationOptions());
  const move = useMutation(trpc.admin.appointments.move.mutationOptions());
  const cancel = useMutation(trpc.admin.appointments.cancel.mutationOptions());
  const slots = useQuery({
    ...trpc.appointments.slots.queryOptions({
      kind: a.kind,
      tz: SERVICE_TIME_ZONE,
      ...(a.clientId && a.kind === 'follow_up' ? { clientId: a.clientId } : {}),
    }),
    enabled: mode === 'move',
  });
  const started = Date.now() >= a.start.getTime();
  const run = async (work: Promise<unknown>, done: string) => {
    try {
      await work;
      toast.success(done);
      await refresh();
      onClose();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const footer =
    mode === 'move' ? (
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={() => setMode('view')}>
          Back
        </Button>
        <Button
          disabled={!picked || move.isPending}
          onClick={() =>
            picked &&
            void run(
              move.mutateAsync({ id: a.id, start: picked.start, message: message.trim() || null }),
              'Moved; the client has been told.',
            )
          }
        >
          Move and tell the client
        </Button>
      </div>
    ) : mode === 'cancel' ? (
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={() => setMode('view')}>
          Back
        </Button>
        <Button
          variant="danger"
          disabled={cancel.isPending}
          onClick={() =>
            void run(cancel.mutateAsync({ id: a.id, message: message.trim() || null }), 'Cancelled; the client has been told.')
          }
        >
          Cancel and tell the client
        </Button>
      </div>
    ) : undefined;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`${APPOINTMENT_KIND_LABELS[a.kind]} with ${a.personName}`}
      description={`${dayLabel(a.india.date, { weekday: 'long' })}, ${a.india.time} India time · ${a.dietitianName} · ${APPOINTMENT_STATUS_LABELS[a.status]}`}
      footer={footer}
      wide={mode === 'move'}
    >
      {mode === 'view' && (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap gap-2">
            <Link href={`~${a.callPath}`} className={buttonClasses('primary', 'sm')}>
              <CalendarClock className="h-4 w-4" aria-hidden="true" />
              Call page
            </Link>
            {a.clientId && (
              <Link href={`/clients/${a.clientId}`} className={buttonClasses('secondary', 'sm')}>
                Client record
              </Link>
            )}
          </div>
          {a.status !== 'cancelled' && (
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={!started || mark.isPending}
                onClick={() => void run(mark.mutateAsync({ id: a.id, status: 'done' }), 'Marked done.')}
              >
                Mark done
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={!started || mark.isPending}
                onClick={() => void run(mark.mutateAsync({ id: a.id, status: 'no_show' }), 'Marked as a no-show.')}
              >
                No-show
              </Button>
              {a.status === 'booked' && (
                <>
                  <Button variant="secondary" size="sm" onClick={() => setMode('move')}>
                    Move
                  </Button>
                  <Button variant="dangerSecondary" size="sm" onClick={() => setMode('cancel')}>
                    Cancel
                  </Button>
                </>
              )}
            </div>
          )}
          {!started && a.status !== 'cancelled' && (
            <p className="text-xs text-slate-500">Done and no-show can be marked once the session has started.</p>
          )}
          {a.cancelReason && <p className="text-sm text-slate-600">Reason: {a.cancelReason}</p>}
        </div>
      )}
      {(mode === 'move' || mode === 'cancel') && (
        <div className="flex flex-col gap-4">
          {mode === 'move' &&
            (slots.isPending ? (
              <Loading label="Loading free times" compact />
            ) : slots.isError ? (
              <LoadError error={slots.error} onRetry={() => void slots.refetch()} compact />
            ) : (
              <SlotPicker
                slots={slots.data.slots}
                timeZone={SERVICE_TIME_ZONE}
                value={picked?.start ?? null}
                onChange={setPicked}
                label="New time (India)"
              />
            ))}
          <label className="flex flex-col gap-1 text-sm font-semibold text-slate-800">
            Message to the client (goes in the e-mail)
            <textarea
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              maxLength={1000}
              rows={3}
              className="rounded-lg border border-slate-300 p-2 font-normal"
            />
          </label>
        </div>
      )}
    </Modal>
  );
}

/** Today's sessions (India time), for the overview. */
export function TodayAppointments() {
  const trpc = useTRPC();
  const today = useQuery({ ...trpc.admin.appointments.today.queryOptions(), staleTime: 0 });
  // Bookings, moves and cancellations by anyone reach today's list and the Overview's figures as they happen.
  useLiveAppointments();
  const [open, setOpen] = useState<AppointmentView | null>(null);
  return (
    <div data-testid="today-appointments">
      <Card className="p-4 sm:p-5">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="text-lg font-bold text-slate-900">Today’s appointments</h2>
          <Link href="/appointments" className="text-sm font-semibold text-brand-800 hover:underline">
            Week calendar
          </Link>
        </div>
        {today.isPending ? (
          <Loading label="Loading today’s appointments" compact />
        ) : today.isError ? (
          <LoadError error={today.error} onRetry={() => void today.refetch()} compact />
        ) : today.data.appointments.length === 0 ? (
          <p className="text-sm text-slate-500">No sessions today.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {today.data.appointments.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  onClick={() => setOpen(a)}
                  className="flex w-full items-center gap-3 py-2 text-left hover:bg-slate-50"
                >
                  <span className="w-12 font-bold text-slate-900">{a.india.time}</span>
                  <span className="min-w-0 flex-1 truncate text-slate-800">
                    {a.personName} <span className="text-slate-500">· {APPOINTMENT_KIND_LABELS[a.kind]}</span>
                  </span>
                  <span className="text-xs text-slate-500">{APPOINTMENT_STATUS_LABELS[a.status]}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {open && <AppointmentDialog appointment={open} onClose={() => setOpen(null)} />}
      </Card>
    </div>
  );
}

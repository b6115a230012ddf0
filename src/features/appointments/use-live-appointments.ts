import { useQueryClient } from '@tanstack/react-query';
import type { AppointmentEvent } from '../../../server/appointments/schema';
import { useTRPC } from '../../lib/trpc';
import { useLiveSubscription } from '../../lib/use-live-subscription';

/**
 * Appointments live (appointments.events), for every screen that shows them: on a change the viewer may see,
 * her appointments (a client's page; the console's calendar, today's list and the Overview's figures) and the
 * free times reload; when only the free times changed (someone else's booking, a dietitian's hours), the
 * slot lists alone. Everything reloads when the stream (re)starts, since what changed meanwhile is unknown.
 */
export function useLiveAppointments() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reload = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
  const slots = () => reload(trpc.appointments.slots.queryKey());
  const all = () => {
    reload(trpc.appointments.list.queryKey());
    reload(trpc.admin.appointments.calendar.queryKey());
    reload(trpc.admin.appointments.today.queryKey());
    reload(trpc.admin.overview.get.queryKey());
    slots();
  };
  return useLiveSubscription({
    resumable: false,
    options: (_lastEventId, handlers) => trpc.appointments.events.subscriptionOptions(undefined, handlers),
    onReady: all,
    onEvent: (event: AppointmentEvent) => (event.kind === 'slots' ? slots() : all()),
  });
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { JournalEvent } from '../../../server/journal/schema';
import { useTRPC } from '../../lib/trpc';
import { type LiveState, useLiveSubscription } from '../../lib/use-live-subscription';

/**
 * One day of a journal, kept live: the client's own (no clientId) or a
 * client's as a dietitian sees it. Any change to the journal (an entry, a
 * comment, a mark, water) on any instance reloads the day shown, and the
 * days' nutrient totals.
 */
export function useJournalDay(date: string | undefined, clientId?: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { clientId, date };
  const day = useQuery({ ...trpc.journal.day.queryOptions(input), staleTime: 10_000 });
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.journal.day.queryKey() });
    // What the days add up to follows their meals (the console's week chart).
    void queryClient.invalidateQueries({ queryKey: trpc.nutritionDays.list.queryKey() });
  };
  const live: LiveState = useLiveSubscription({
    key: clientId ?? 'own',
    resumable: false,
    options: (_lastEventId, handlers) => trpc.journal.events.subscriptionOptions({ clientId }, handlers),
    onReady: reload,
    onEvent: (_event: JournalEvent) => reload(),
  });
  return { day, live, reload };
}

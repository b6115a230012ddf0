import { useQueryClient } from '@tanstack/react-query';
import type { CareRecordEvent } from '../../../server/care-record/schema';
import { useTRPC } from '../../lib/trpc';
import { useLiveSubscription } from '../../lib/use-live-subscription';

/**
 * One client's care record live (careRecord.events): what the other side
 * saves (goals a dietitian set, a lab report the client added, the intake)
 * reloads here at once. The client's own screens leave clientId out; a
 * dietitian's page of her names it. On (re)start every part reloads.
 */
export function useLiveCareRecord(clientId?: number) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = {
    goals: [trpc.careRecord.goals.pathKey()],
    documents: [trpc.careRecord.documents.pathKey()],
    intake: [trpc.careRecord.intake.pathKey()],
    measurements: [trpc.careRecord.measurements.pathKey(), trpc.careRecord.goals.pathKey()],
    photos: [trpc.careRecord.progressPhotos.pathKey()],
  } as const;
  const reload = (parts: readonly (keyof typeof keys)[]) => {
    for (const part of parts) for (const queryKey of keys[part]) void queryClient.invalidateQueries({ queryKey });
  };
  return useLiveSubscription({
    key: clientId ?? 'own',
    resumable: false,
    options: (_lastEventId, handlers) => trpc.careRecord.events.subscriptionOptions({ clientId }, handlers),
    onReady: () => reload(['goals', 'documents', 'intake', 'measurements', 'photos']),
    onEvent: (event: CareRecordEvent) => {
      if (event.kind === 'changed') reload([event.part]);
    },
  });
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { followConnection, keepOfflineData, restoreOfflineData } from '../../../lib/offline-cache';
import { flushWhenOnline, registerSender } from '../../../lib/offline-queue';
import { startPwa } from '../../../lib/pwa';
import { useTRPC, useTRPCClient } from '../../../lib/trpc';
import type { CheckInPayload, MealPayload, WeightPayload } from './queued';

/**
 * What makes the dashboard work on a bad connection (decision 116): its last data comes back from
 * IndexedDB before its screens ask for it (`ready` turns true then), the data is kept as it changes,
 * weights, check-ins and meals made offline are sent when the connection returns, and the service worker is
 * registered once the page has loaded.
 */
export function useOfflineDashboard(userId: number | null): { ready: boolean } {
  const queryClient = useQueryClient();
  const client = useTRPCClient();
  const trpc = useTRPC();
  const [restoredFor, setRestoredFor] = useState<number | null>(null);

  // Before any screen asks for data: without a connection its fetch waits and the kept data shows.
  useEffect(() => followConnection(queryClient), [queryClient]);

  useEffect(() => {
    if (userId === null) return;
    let cancelled = false;
    let stop: (() => void) | undefined;
    void restoreOfflineData(queryClient, userId).then(() => {
      if (cancelled) return;
      stop = keepOfflineData(queryClient, userId);
      setRestoredFor(userId);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, userId]);

  useEffect(() => {
    if (userId === null) return;
    const refresh = (...keys: readonly (readonly unknown[])[]) => {
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
    };
    const stops = [
      registerSender<WeightPayload>(
        'weight',
        (p) => client.weight.add.mutate(p),
        () => refresh(trpc.weight.list.queryKey(), trpc.auth.checkAuthorization.queryKey()),
      ),
      registerSender<CheckInPayload>(
        'check-in',
        (p) => client.checkIn.create.mutate(p),
        () => refresh(trpc.checkIn.list.queryKey(), trpc.weight.list.queryKey(), trpc.auth.checkAuthorization.queryKey()),
      ),
      registerSender<MealPayload>(
        'meal',
        (p) => client.journal.create.mutate({ ...p, eatenAt: new Date(p.eatenAt) }),
        () => refresh(trpc.journal.pathKey()),
      ),
      flushWhenOnline(userId),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, [client, trpc, queryClient, userId]);

  useEffect(() => startPwa((path) => navigate(path)), []);

  // Without the user's id (an old session's storage) there is nothing of theirs to restore.
  return { ready: userId === null || restoredFor === userId };
}

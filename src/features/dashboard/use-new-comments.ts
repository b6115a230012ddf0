import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { JournalEvent } from '../../../server/journal/schema';
import { useTRPC } from '../../lib/trpc';
import { useLiveSubscription } from '../../lib/use-live-subscription';

const seenKey = (userId: number) => `poshan:journal-seen:${userId}`;

function readSeen(userId: number): number {
  try {
    const stored = Number(localStorage.getItem(seenKey(userId)));
    return Number.isFinite(stored) && stored > 0 ? stored : 0;
  } catch {
    return 0;
  }
}

function writeSeen(userId: number, at: number) {
  try {
    localStorage.setItem(seenKey(userId), String(at));
  } catch {
    // Storage refused (private mode): the count resets with the page, nothing else is lost.
  }
}

/**
 * How many comments the care team wrote on the client's meals (the last week's) since she last had
 * the journal open: the tab bar's and the title's count. Live: a comment on any instance recounts it.
 * "Last opened" is kept on this device (signing out clears it with the rest of localStorage); on a
 * device that has never opened the journal, what is there already is not new.
 */
export function useNewJournalComments(userId: number | null): number {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [location] = useLocation();
  const onJournal = location.replace(/\/+$/, '') === '/journal';
  const [seenAt, setSeenAt] = useState(() => (userId === null ? 0 : readSeen(userId)));
  const week = useQuery({ ...trpc.journal.list.queryOptions({}), enabled: userId !== null });
  const recount = () => void queryClient.invalidateQueries({ queryKey: trpc.journal.list.queryKey() });
  useLiveSubscription({
    key: 'own',
    enabled: userId !== null,
    resumable: false,
    options: (_lastEventId, handlers) => trpc.journal.events.subscriptionOptions({}, handlers),
    onReady: recount,
    onEvent: (event: JournalEvent) => {
      if (event.kind === 'changed' && event.what === 'comment') recount();
    },
  });

  const comments = (week.data?.entries ?? []).flatMap((entry) => entry.comments);
  const latest = comments.reduce((max, c) => Math.max(max, c.createdAt.getTime()), 0);
  // Reading the journal (or a first visit on this device) sees everything up to now.
  useEffect(() => {
    if (userId === null || !week.data) return;
    if (onJournal || seenAt === 0) {
      const at = Math.max(Date.now(), latest);
      if (at > seenAt) {
        writeSeen(userId, at);
        setSeenAt(at);
      }
    }
  }, [userId, onJournal, week.data, latest, seenAt]);

  if (onJournal || seenAt === 0) return 0;
  return comments.filter((c) => c.author.role === 'dietitian' && c.createdAt.getTime() > seenAt).length;
}

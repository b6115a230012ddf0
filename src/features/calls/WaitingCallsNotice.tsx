import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, BellOff, Video } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { SeatsEvent, WaitingCall } from '../../../server/calls/schema';
import { Button, buttonClasses } from '../../components/ui/Button';
import { useTRPC } from '../../lib/trpc';
import { useLiveSubscription } from '../../lib/use-live-subscription';

const ALERTS_KEY = 'poshan:waiting-alerts';
/** A place whose page vanished without a word goes stale on the server after 45 s: look again now and then. */
const RECHECK_MS = 20_000;

const minutesSince = (d: Date) => Math.max(0, Math.round((Date.now() - d.getTime()) / 60_000));

/**
 * "Asha is waiting": the clients (and visitors) in a call that no dietitian
 * has joined yet, live, each with a Join button; a chime and a browser
 * notification when someone new comes, if the dietitian turned alerts on.
 */
export function WaitingCallsNotice() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const waiting = useQuery({ ...trpc.admin.calls.waiting.queryOptions(), refetchInterval: RECHECK_MS, staleTime: 0 });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.admin.calls.waiting.queryKey() });
  useLiveSubscription({
    resumable: false,
    options: (_lastEventId, handlers) => trpc.admin.calls.seats.subscriptionOptions(undefined, handlers),
    onReady: refresh,
    onEvent: (_event: SeatsEvent) => refresh(),
  });
  const [alerts, setAlerts] = useState(() => typeof localStorage !== 'undefined' && localStorage.getItem(ALERTS_KEY) === 'on');
  const seen = useRef<Set<number> | null>(null);
  const list = waiting.data ?? [];

  useEffect(() => {
    if (!waiting.data) return;
    const known = seen.current;
    seen.current = new Set(waiting.data.map((w) => w.appointmentId));
    // The first answer is what was already there: only someone new is announced.
    if (!known || !alerts) return;
    const fresh = waiting.data.filter((w) => !known.has(w.appointmentId));
    if (fresh.length === 0) return;
    chime();
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted')
      for (const w of fresh)
        new Notification(`${w.name} is waiting`, { body: 'In the call. Open the console to join.', tag: `call-${w.appointmentId}` });
  }, [waiting.data, alerts]);

  const toggleAlerts = async () => {
    const next = !alerts;
    if (next && typeof Notification !== 'undefined' && Notification.permission === 'default') await Notification.requestPermission();
    localStorage.setItem(ALERTS_KEY, next ? 'on' : 'off');
    setAlerts(next);
  };

  if (list.length === 0) return null;
  return (
    <section
      aria-label="Waiting in a call"
      className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-3 sm:p-4"
      data-testid="waiting-calls"
    >
      <ul className="flex flex-col gap-2" aria-live="polite">
        {list.map((w) => (
          <WaitingRow key={w.appointmentId} call={w} />
        ))}
      </ul>
      <Button variant="ghost" size="sm" className="mt-2" onClick={() => void toggleAlerts()} aria-pressed={alerts}>
        {alerts ? <Bell className="h-4 w-4" aria-hidden="true" /> : <BellOff className="h-4 w-4" aria-hidden="true" />}
        {alerts ? 'Sound and notification on' : 'Alert me with a sound and a notification'}
      </Button>
    </section>
  );
}

function WaitingRow({ call }: { call: WaitingCall }) {
  const minutes = minutesSince(call.waitingSince);
  return (
    <li className="flex flex-wrap items-center gap-3">
      <span className="relative flex h-3 w-3" aria-hidden="true">
        <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-amber-500 opacity-75 motion-reduce:animate-none" />
        <span className="relative inline-flex h-3 w-3 rounded-full bg-amber-600" />
      </span>
      <p className="min-w-0 flex-1 font-semibold text-amber-950" data-testid="waiting-name">
        {call.name} is waiting
        <span className="ml-2 text-sm font-normal text-amber-900">
          {call.guest ? 'visitor · ' : ''}
          {minutes < 1 ? 'just now' : `for ${minutes} min`}
        </span>
      </p>
      <Link href={`~/call/${call.appointmentId}`} className={buttonClasses('primary', 'sm')}>
        <Video className="h-4 w-4" aria-hidden="true" />
        Join
      </Link>
    </li>
  );
}

/** A short two-note chime (no audio file to load). */
function chime() {
  if (typeof AudioContext === 'undefined') return;
  const context = new AudioContext();
  const at = context.currentTime;
  for (const [i, freq] of [660, 880].entries()) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.2, at + i * 0.18 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.18 + 0.16);
    osc.connect(gain).connect(context.destination);
    osc.start(at + i * 0.18);
    osc.stop(at + i * 0.18 + 0.17);
  }
  setTimeout(() => void context.close(), 600);
}

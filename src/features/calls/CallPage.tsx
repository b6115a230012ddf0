import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ExternalLink, Mic, MicOff, PhoneOff, Settings, Video, VideoOff, Wifi, WifiOff } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'wouter';
import type { CallInfo } from '../../../server/calls/schema';
import { Button, buttonClasses } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { SelectField } from '../../components/ui/Field';
import { Loading } from '../../components/ui/States';
import { errorMessage } from '../../lib/errors';
import { useTRPC, useTRPCClient } from '../../lib/trpc';
import { useDocumentTitle } from '../../lib/use-document-title';
import { CallNotice } from './CallNotice';
import { CallSession, type CallSnapshot, type CallTransport, memberTransport } from './call-session';
import { type CheckedMedia, DeviceCheck } from './DeviceCheck';
import { SessionNotes } from './SessionNotes';

const httpStatusOf = (error: unknown) => (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus ?? 500;

/** The call of one appointment: who, when, and the call itself once it is open. */
export function CallPage({ appointmentId }: { appointmentId: number }) {
  const trpc = useTRPC();
  const info = useQuery({
    ...trpc.calls.get.queryOptions({ appointmentId }),
    retry: false,
    // Before it opens (and while open, to notice it closing), look again now and then.
    refetchInterval: (q) => (q.state.data?.state === 'closed' ? false : 30_000),
  });
  if (info.isPending) return <Loading label="Loading the call" />;
  if (info.error) return <CallNotice status={httpStatusOf(info.error)} message={errorMessage(info.error)} />;
  return <MemberCallRoom info={info.data} />;
}

function MemberCallRoom({ info }: { info: CallInfo }) {
  const client = useTRPCClient();
  const transport = useMemo(() => memberTransport(client, info.appointmentId), [client, info.appointmentId]);
  return <CallRoom info={info} transport={transport} />;
}

const time = (d: Date) => d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
const day = (d: Date) => d.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });

/** The call page of either side (a visitor with her guest link too): the check before joining, the call, and what goes beside it. */
export function CallRoom({ info, transport }: { info: CallInfo; transport: CallTransport }) {
  const kind = info.kind === 'consultation' ? 'Consultation' : 'Follow-up';
  const title = `${kind} with ${info.otherName}`;
  useDocumentTitle(`Call · ${title}`);
  const [joined, setJoined] = useState<CheckedMedia | null>(null);
  const back = info.guest
    ? null
    : info.side === 'team'
      ? { href: '~/admin', label: 'Console' }
      : { href: '~/dashboard', label: 'Dashboard' };
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-[1400px] flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 sm:px-6">
          {back && (
            <Link
              href={back.href}
              className="inline-flex w-full items-center gap-1 text-sm font-medium text-brand-800 hover:underline sm:w-auto"
            >
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              {back.label}
            </Link>
          )}
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-lg font-bold text-slate-900 sm:text-xl">{title}</h1>
            <p className="text-sm text-slate-600">
              {day(info.startsAt)}, {time(info.startsAt)} – {time(info.endsAt)}
            </p>
          </div>
        </div>
      </header>
      <main className="mx-auto grid w-full max-w-[1400px] flex-1 gap-4 p-3 sm:p-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0">
          {info.state === 'open' && joined ? (
            <InCall info={info} transport={transport} media={joined} onLeave={() => setJoined(null)} />
          ) : info.state === 'open' ? (
            <DeviceCheck onJoin={setJoined} />
          ) : (
            <Lobby info={info} />
          )}
        </div>
        <aside className="flex min-w-0 flex-col gap-4">
          <AboutCall info={info} />
          {info.side === 'team' && info.clientId !== null && info.state !== 'early' && <SessionNotes appointmentId={info.appointmentId} />}
        </aside>
      </main>
    </div>
  );
}

/** The stage before joining: when the call opens, or a button to join it. */
function Lobby({ info }: { info: CallInfo }) {
  return (
    <Stage>
      <div className="flex h-full flex-col items-center justify-center gap-4 px-6 text-center">
        <Avatar name={info.otherName} />
        {info.state === 'early' && (
          <p className="max-w-sm text-slate-200" role="status">
            The call opens at <strong className="text-white">{time(info.opensAt)}</strong>, 10 minutes before the start. This page will let
            you in then.
          </p>
        )}
        {info.state === 'closed' && (
          <p className="max-w-sm text-slate-200" role="status">
            {info.status === 'cancelled' || info.status === 'no_show' ? 'This appointment was cancelled.' : 'This call has ended.'}
          </p>
        )}
      </div>
    </Stage>
  );
}

function useCallSession(info: CallInfo, transport: CallTransport, media: CheckedMedia) {
  const session = useMemo(() => new CallSession(transport, info.side), [transport, info.side]);
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  useEffect(() => {
    void session.start(media);
    const leave = () => session.hangUp();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      session.hangUp();
    };
  }, [session]);
  return { session, snapshot };
}

const STATUS_TEXT: Record<CallSnapshot['status'], string> = {
  idle: 'Starting…',
  starting: 'Starting your camera…',
  waiting: 'Waiting for the other side to join…',
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  replaced: 'You joined this call from another tab or device.',
  revoked: 'This link was replaced by a newer one, so you left the call. Use the latest link we sent you.',
  ended: 'You left the call.',
  failed: 'The call could not start.',
};

function InCall({
  info,
  transport,
  media,
  onLeave,
}: {
  info: CallInfo;
  transport: CallTransport;
  media: CheckedMedia;
  onLeave: () => void;
}) {
  const { session, snapshot: s } = useCallSession(info, transport, media);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const remoteVisible = s.remoteStream !== null && !s.remoteCameraOff && s.status !== 'waiting';
  let status = STATUS_TEXT[s.status];
  if (s.status === 'waiting')
    status = s.otherLeft ? `${info.otherName} left the call. They can join again.` : `Waiting for ${info.otherName} to join…`;
  const over = s.status === 'ended' || s.status === 'replaced' || s.status === 'revoked' || s.status === 'failed';
  return (
    <div className="flex flex-col gap-3">
      <Stage>
        <RemoteVideo stream={s.remoteStream} hidden={!remoteVisible} />
        {!remoteVisible && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 px-6 text-center">
            <Avatar name={info.otherName} />
            {s.remoteCameraOff && s.status === 'connected' && (
              <p className="font-medium text-slate-200" data-testid="remote-camera-off">
                {info.otherName}'s camera is off
              </p>
            )}
          </div>
        )}
        <div className="absolute top-3 left-3 flex flex-wrap gap-2">
          <Pill tone={s.status === 'connected' ? 'good' : over ? 'bad' : 'neutral'} testId="call-status">
            {status}
          </Pill>
          {s.weak && s.status === 'connected' && (
            <Pill tone="warn" testId="connection-weak">
              <WifiOff className="h-3.5 w-3.5" aria-hidden="true" /> Connection weak
            </Pill>
          )}
        </div>
        {s.status === 'connected' && (
          <div className="absolute bottom-3 left-3 flex flex-wrap items-center gap-2">
            <Pill tone="dark">{info.otherName}</Pill>
            {s.remoteMuted && (
              <Pill tone="dark" testId="remote-muted">
                <MicOff className="h-3.5 w-3.5" aria-hidden="true" /> Muted
              </Pill>
            )}
            {s.remoteCameraOff && (
              <Pill tone="dark">
                <VideoOff className="h-3.5 w-3.5" aria-hidden="true" /> Camera off
              </Pill>
            )}
          </div>
        )}
        {s.localStream && !over && (
          <LocalPreview stream={s.localStream} cameraOff={s.cameraOff || s.localStream.getVideoTracks().length === 0} />
        )}
      </Stage>
      {s.error && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" role="alert">
          {s.error}
        </p>
      )}
      {over ? (
        <div className="flex justify-center">
          <Button onClick={onLeave} variant="secondary">
            Back to the call page
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-center gap-3" role="toolbar" aria-label="Call controls">
          <RoundButton
            label={s.muted ? 'Unmute microphone' : 'Mute microphone'}
            pressed={s.muted}
            onClick={() => session.setMuted(!s.muted)}
          >
            {s.muted ? <MicOff className="h-6 w-6" aria-hidden="true" /> : <Mic className="h-6 w-6" aria-hidden="true" />}
          </RoundButton>
          <RoundButton
            label={s.cameraOff ? 'Turn camera on' : 'Turn camera off'}
            pressed={s.cameraOff}
            onClick={() => session.setCameraOff(!s.cameraOff)}
          >
            {s.cameraOff ? <VideoOff className="h-6 w-6" aria-hidden="true" /> : <Video className="h-6 w-6" aria-hidden="true" />}
          </RoundButton>
          <RoundButton label="Camera and microphone settings" pressed={settingsOpen} onClick={() => setSettingsOpen((o) => !o)}>
            <Settings className="h-6 w-6" aria-hidden="true" />
          </RoundButton>
          <RoundButton label="Leave call" danger onClick={() => session.hangUp()}>
            <PhoneOff className="h-6 w-6" aria-hidden="true" />
          </RoundButton>
        </div>
      )}
      {settingsOpen && !over && <DeviceSettings snapshot={s} session={session} />}
    </div>
  );
}

function DeviceSettings({ snapshot: s, session }: { snapshot: CallSnapshot; session: CallSession }) {
  return (
    <Card title="Camera and microphone">
      <div className="grid gap-3 p-4 sm:grid-cols-2 sm:p-5">
        <SelectField label="Microphone" value={s.microphoneId ?? ''} onChange={(e) => void session.useDevice('audio', e.target.value)}>
          {s.microphones.map((d, i) => (
            <option key={d.deviceId || i} value={d.deviceId}>
              {d.label || `Microphone ${i + 1}`}
            </option>
          ))}
        </SelectField>
        <SelectField label="Camera" value={s.cameraId ?? ''} onChange={(e) => void session.useDevice('video', e.target.value)}>
          {s.cameras.length === 0 && <option value="">No camera found</option>}
          {s.cameras.map((d, i) => (
            <option key={d.deviceId || i} value={d.deviceId}>
              {d.label || `Camera ${i + 1}`}
            </option>
          ))}
        </SelectField>
      </div>
    </Card>
  );
}

function AboutCall({ info }: { info: CallInfo }) {
  return (
    <Card title="About this call">
      <div className="space-y-3 p-4 text-sm text-slate-700 sm:p-5">
        <p className="flex items-start gap-2">
          <Wifi className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
          <span>
            A private video call between you and {info.otherName}, straight from your browser. It opens 10 minutes before the start and is
            never recorded.
          </span>
        </p>
        {info.fallbackUrl && (
          <div className="rounded-lg bg-slate-50 p-3">
            <p className="mb-2">Prefer another meeting app, or trouble connecting here?</p>
            <a
              href={info.fallbackUrl}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClasses('secondary', 'sm')}
              data-testid="fallback-link"
            >
              <ExternalLink className="h-4 w-4" aria-hidden="true" />
              Join on the meeting link
            </a>
          </div>
        )}
      </div>
    </Card>
  );
}

function Stage({ children }: { children: ReactNode }) {
  return (
    <div className="relative aspect-[3/4] max-h-[75vh] w-full overflow-hidden rounded-2xl bg-slate-900 text-white shadow-inner sm:aspect-video">
      {children}
    </div>
  );
}

/** A video element showing a live stream (srcObject has no attribute to render). */
function useStream(stream: MediaStream | null) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  return ref;
}

function RemoteVideo({ stream, hidden }: { stream: MediaStream | null; hidden: boolean }) {
  const ref = useStream(stream);
  // Kept mounted while the camera is off, so the other side's sound keeps playing.
  return (
    // biome-ignore lint/a11y/useMediaCaption: a live call has no caption track to give
    <video
      ref={ref}
      autoPlay
      playsInline
      data-testid="remote-video"
      className={`absolute inset-0 h-full w-full object-cover ${hidden ? 'opacity-0' : ''}`}
    />
  );
}

function LocalPreview({ stream, cameraOff }: { stream: MediaStream; cameraOff: boolean }) {
  const ref = useStream(stream);
  return (
    <div className="absolute right-3 bottom-3 aspect-video w-28 overflow-hidden rounded-lg border-2 border-white/70 bg-slate-800 shadow-lg sm:w-44 xl:w-56">
      <video ref={ref} autoPlay playsInline muted data-testid="local-video" className="h-full w-full -scale-x-100 object-cover" />
      {cameraOff && (
        <div className="absolute inset-0 flex items-center justify-center bg-slate-800 text-xs font-medium text-slate-200">Camera off</div>
      )}
      <span className="sr-only">Your camera</span>
    </div>
  );
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="flex h-20 w-20 items-center justify-center rounded-full bg-brand-700 text-3xl font-bold text-white sm:h-24 sm:w-24">
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

const PILL_TONES = {
  good: 'bg-emerald-600/90 text-white',
  warn: 'bg-amber-400 text-slate-900',
  bad: 'bg-red-600/90 text-white',
  neutral: 'bg-white/90 text-slate-900',
  dark: 'bg-slate-900/75 text-white',
} as const;

function Pill({ tone, testId, children }: { tone: keyof typeof PILL_TONES; testId?: string; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-3 py-1 text-xs font-semibold sm:text-sm ${PILL_TONES[tone]}`}
      data-testid={testId}
      role={testId === 'call-status' ? 'status' : undefined}
    >
      {children}
    </span>
  );
}

function RoundButton({
  label,
  pressed,
  danger,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  danger?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  const look = danger
    ? 'bg-red-600 text-white hover:bg-red-700'
    : pressed
      ? 'bg-slate-800 text-white hover:bg-slate-700'
      : 'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50';
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={danger ? undefined : pressed}
      onClick={onClick}
      className={`flex h-14 w-14 items-center justify-center rounded-full shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${look}`}
    >
      {children}
    </button>
  );
}

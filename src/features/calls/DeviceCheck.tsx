import { Mic, MicOff, Video, VideoOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { SelectField } from '../../components/ui/Field';

/** What the check hands to the call: the stream it opened (null: none allowed) and the person's choices. */
export type CheckedMedia = { stream: MediaStream | null; muted: boolean; cameraOff: boolean };

type Problem = 'denied' | 'missing' | 'other' | null;

const PROBLEM_TEXT: Record<Exclude<Problem, null>, string> = {
  denied:
    'Your browser was told not to let this page use the camera and microphone. Allow them from the lock or camera icon beside the address, then press Try again. You can also join without them: the other side will not see or hear you.',
  missing: 'No camera or microphone was found. Connect one and press Try again, or join without them.',
  other: 'The camera or microphone could not be started (another app may be using it). Close it and press Try again.',
};

function problemOf(err: unknown): Problem {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  return 'other';
}

/**
 * The camera and microphone check before joining a call (both sides, and a
 * visitor with her guest link): a preview, a pick of devices when there is
 * more than one, a level meter for the microphone, and a plain message when
 * permission is refused. The stream it opened goes into the call.
 */
export function DeviceCheck({ onJoin, joinLabel = 'Join call' }: { onJoin: (media: CheckedMedia) => void; joinLabel?: string }) {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [problem, setProblem] = useState<Problem>(null);
  const [pending, setPending] = useState(true);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [choice, setChoice] = useState<{ audio?: string; video?: string }>({});
  const handed = useRef(false);

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    setPending(true);
    const audio: MediaTrackConstraints | boolean = choice.audio ? { deviceId: { exact: choice.audio } } : true;
    const video: MediaTrackConstraints | boolean = choice.video ? { deviceId: { exact: choice.video } } : true;
    (async () => {
      try {
        try {
          opened = await navigator.mediaDevices.getUserMedia({ audio, video });
        } catch (err) {
          // No camera (or no permission for it): the microphone alone still makes a call.
          if (problemOf(err) === 'denied') throw err;
          opened = await navigator.mediaDevices.getUserMedia({ audio });
        }
        if (cancelled) return;
        setStream(opened);
        setProblem(null);
        setDevices(await navigator.mediaDevices.enumerateDevices());
      } catch (err) {
        if (!cancelled) {
          setStream(null);
          setProblem(problemOf(err));
        }
      } finally {
        if (!cancelled) setPending(false);
      }
    })();
    return () => {
      cancelled = true;
      // The stream stays open only when it went into the call.
      if (opened && !handed.current) for (const t of opened.getTracks()) t.stop();
    };
  }, [attempt, choice]);

  useEffect(() => {
    for (const t of stream?.getAudioTracks() ?? []) t.enabled = !muted;
  }, [stream, muted]);
  useEffect(() => {
    for (const t of stream?.getVideoTracks() ?? []) t.enabled = !cameraOff;
  }, [stream, cameraOff]);

  const microphones = devices.filter((d) => d.kind === 'audioinput');
  const cameras = devices.filter((d) => d.kind === 'videoinput');
  const hasVideo = (stream?.getVideoTracks().length ?? 0) > 0;
  const hasAudio = (stream?.getAudioTracks().length ?? 0) > 0;
  const join = () => {
    handed.current = true;
    onJoin({ stream, muted, cameraOff });
  };

  return (
    <section aria-labelledby="device-check-title" className="flex flex-col gap-4" data-testid="device-check">
      <h2 id="device-check-title" className="text-lg font-semibold text-slate-900">
        Check your camera and microphone
      </h2>
      <div className="relative aspect-video w-full overflow-hidden rounded-2xl bg-slate-900">
        {hasVideo && !cameraOff ? (
          <Preview stream={stream} />
        ) : (
          <p className="absolute inset-0 flex items-center justify-center px-6 text-center text-slate-200">
            {pending ? 'Starting your camera…' : hasVideo ? 'Your camera is off.' : 'No camera picture.'}
          </p>
        )}
      </div>
      {problem && (
        <div className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950" role="alert" data-testid="device-problem">
          <p>{PROBLEM_TEXT[problem]}</p>
          <Button className="mt-2" size="sm" variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      )}
      {hasAudio && <LevelMeter stream={stream} muted={muted} />}
      {(microphones.length > 1 || cameras.length > 1) && (
        <div className="grid gap-3 sm:grid-cols-2">
          {microphones.length > 1 && (
            <SelectField
              label="Microphone"
              value={choice.audio ?? stream?.getAudioTracks()[0]?.getSettings().deviceId ?? ''}
              onChange={(e) => setChoice((c) => ({ ...c, audio: e.target.value }))}
            >
              {microphones.map((d, i) => (
                <option key={d.deviceId || i} value={d.deviceId}>
                  {d.label || `Microphone ${i + 1}`}
                </option>
              ))}
            </SelectField>
          )}
          {cameras.length > 1 && (
            <SelectField
              label="Camera"
              value={choice.video ?? stream?.getVideoTracks()[0]?.getSettings().deviceId ?? ''}
              onChange={(e) => setChoice((c) => ({ ...c, video: e.target.value }))}
            >
              {cameras.map((d, i) => (
                <option key={d.deviceId || i} value={d.deviceId}>
                  {d.label || `Camera ${i + 1}`}
                </option>
              ))}
            </SelectField>
          )}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {hasAudio && (
          <Button variant="secondary" onClick={() => setMuted((m) => !m)} aria-pressed={muted}>
            {muted ? <MicOff className="h-5 w-5" aria-hidden="true" /> : <Mic className="h-5 w-5" aria-hidden="true" />}
            {muted ? 'Microphone off' : 'Microphone on'}
          </Button>
        )}
        {hasVideo && (
          <Button variant="secondary" onClick={() => setCameraOff((c) => !c)} aria-pressed={cameraOff}>
            {cameraOff ? <VideoOff className="h-5 w-5" aria-hidden="true" /> : <Video className="h-5 w-5" aria-hidden="true" />}
            {cameraOff ? 'Camera off' : 'Camera on'}
          </Button>
        )}
        <Button size="lg" onClick={join} disabled={pending} className="ml-auto">
          <Video className="h-5 w-5" aria-hidden="true" />
          {joinLabel}
        </Button>
      </div>
      <p className="text-sm text-slate-600">Your camera and microphone are used only for this call. Nothing is recorded.</p>
    </section>
  );
}

function Preview({ stream }: { stream: MediaStream | null }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = stream;
  }, [stream]);
  return <video ref={ref} autoPlay playsInline muted className="h-full w-full -scale-x-100 object-cover" data-testid="device-preview" />;
}

/** How loud the microphone is, from its samples (a bar that moves as she speaks). */
function LevelMeter({ stream, muted }: { stream: MediaStream | null; muted: boolean }) {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!stream || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    const source = context.createMediaStreamSource(stream);
    source.connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    const tick = () => {
      analyser.getByteTimeDomainData(samples);
      let peak = 0;
      for (const s of samples) peak = Math.max(peak, Math.abs(s - 128));
      setLevel(Math.min(100, Math.round((peak / 128) * 140)));
      frame = requestAnimationFrame(tick);
    };
    tick();
    return () => {
      cancelAnimationFrame(frame);
      source.disconnect();
      void context.close();
    };
  }, [stream]);
  const shown = muted ? 0 : level;
  return (
    <div className="flex items-center gap-3">
      <span className="text-sm font-medium text-slate-700" id="mic-level-label">
        Microphone level
      </span>
      <div
        className="h-3 flex-1 overflow-hidden rounded-full bg-slate-200"
        role="meter"
        aria-labelledby="mic-level-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={shown}
        data-testid="mic-level"
      >
        <div className="h-full bg-brand-700 transition-[width] duration-75 motion-reduce:transition-none" style={{ width: `${shown}%` }} />
      </div>
      {muted && <span className="text-sm text-slate-600">Muted</span>}
    </div>
  );
}

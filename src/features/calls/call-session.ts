import type { z } from 'zod';
import type { CallEvent, CallSignal, guestPassInput } from '../../../server/calls/schema';
import type { trpcClient } from '../../lib/trpc';

type GuestPassInput = z.infer<typeof guestPassInput>;

/**
 * One side of a one-to-one call (decision 120): the browser's
 * RTCPeerConnection, signalled through calls.join (what the other page sends
 * us) and calls.signal (what we send it), with the "perfect negotiation"
 * pattern: either side may offer at any time, the client's page is the
 * polite one that gives way when both offer at once. No React here: the
 * page reads `snapshot` through useSyncExternalStore.
 */

export type CallStatus =
  | 'idle'
  | 'starting'
  /** In the call, the other side not there (yet, or any more). */
  | 'waiting'
  | 'connecting'
  | 'connected'
  /** The network changed or dropped: restarting ICE. */
  | 'reconnecting'
  /** This person opened the call elsewhere. */
  | 'replaced'
  /** A guest's link was revoked by the care team. */
  | 'revoked'
  | 'ended'
  | 'failed';

export type CallSnapshot = {
  status: CallStatus;
  error: string | null;
  /** The other side was here and left (or hung up). */
  otherLeft: boolean;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  muted: boolean;
  cameraOff: boolean;
  remoteMuted: boolean;
  remoteCameraOff: boolean;
  /** getStats says the connection is poor (round trip, loss). */
  weak: boolean;
  microphones: MediaDeviceInfo[];
  cameras: MediaDeviceInfo[];
  microphoneId: string | null;
  cameraId: string | null;
};

type Client = typeof trpcClient;

/** How a page reaches its call: as a signed-in person (calls.*) or as a visitor with her guest link (calls.guest.*). */
export type CallTransport = {
  iceConfig(): Promise<{ iceServers: RTCIceServer[] }>;
  join(peerId: string, handlers: { onData: (event: CallEvent) => void; onError: (err: unknown) => void }): { unsubscribe(): void };
  signal(peerId: string, signal: CallSignal): Promise<unknown>;
};

export function memberTransport(client: Client, appointmentId: number): CallTransport {
  return {
    iceConfig: () => client.calls.iceConfig.query({ appointmentId }),
    join: (peerId, h) =>
      client.calls.join.subscribe({ appointmentId, peerId }, { onData: (e) => h.onData(e as unknown as CallEvent), onError: h.onError }),
    signal: (peerId, signal) => client.calls.signal.mutate({ appointmentId, peerId, signal }),
  };
}

export function guestTransport(client: Client, pass: GuestPassInput): CallTransport {
  return {
    iceConfig: () => client.calls.guest.iceConfig.query({ pass }),
    join: (peerId, h) =>
      client.calls.guest.join.subscribe({ pass, peerId }, { onData: (e) => h.onData(e as unknown as CallEvent), onError: h.onError }),
    signal: (peerId, signal) => client.calls.guest.signal.mutate({ pass, peerId, signal }),
  };
}

/** A connection "disconnected" this long is restarted (ICE restart) rather than waited for. */
const DISCONNECTED_RESTART_MS = 3000;
const STATS_EVERY_MS = 2000;
/** A connection that has neither connected nor changed state this long is started afresh on both sides. */
const STALLED_MS = 10_000;
/** Above these the connection is called weak: a round trip in seconds, and the share of packets lost since the last look. */
const WEAK_RTT_S = 0.5;
const WEAK_LOSS = 0.05;

const initial: CallSnapshot = {
  status: 'idle',
  error: null,
  otherLeft: false,
  localStream: null,
  remoteStream: null,
  muted: false,
  cameraOff: false,
  remoteMuted: false,
  remoteCameraOff: false,
  weak: false,
  microphones: [],
  cameras: [],
  microphoneId: null,
  cameraId: null,
};

const messageOf = (err: unknown) => (err instanceof Error ? err.message : 'Something went wrong with the call.');

export class CallSession {
  snapshot: CallSnapshot = initial;
  private readonly listeners = new Set<() => void>();
  private readonly peerId = crypto.randomUUID();
  private readonly polite: boolean;
  private pc: RTCPeerConnection | null = null;
  private remotePeer: string | null = null;
  private makingOffer = false;
  private ignoreOffer = false;
  private iceServers: RTCIceServer[] = [];
  private subscription: { unsubscribe(): void } | null = null;
  /** Signals go out one after another (calls.signal is HTTP: two at once could overtake each other). */
  private sending: Promise<unknown> = Promise.resolve();
  /** Signals are handled one after another too (each waits on the peer connection). */
  private handling: Promise<unknown> = Promise.resolve();
  private disconnectedTimer: ReturnType<typeof setTimeout> | undefined;
  private statsTimer: ReturnType<typeof setInterval> | undefined;
  private lastLoss = { lost: 0, received: 0 };
  /** When this connection was made, last changed state or was started again because it stalled. */
  private negotiatingSince = 0;
  private stopped = false;

  constructor(
    private readonly transport: CallTransport,
    side: 'client' | 'team',
  ) {
    this.polite = side === 'client';
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getSnapshot = () => this.snapshot;

  private set(patch: Partial<CallSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  /**
   * Camera and microphone (the ones the check before joining opened, when it
   * did), the ICE servers, then the signalling subscription.
   */
  async start(checked?: { stream: MediaStream | null; muted: boolean; cameraOff: boolean }): Promise<void> {
    this.set({ status: 'starting', error: null });
    try {
      const ice = await this.transport.iceConfig();
      this.iceServers = ice.iceServers;
      const local = checked ? checked.stream : await this.openMedia({ audio: true, video: true });
      if (checked) {
        for (const t of local?.getAudioTracks() ?? []) t.enabled = !checked.muted;
        for (const t of local?.getVideoTracks() ?? []) t.enabled = !checked.cameraOff;
        this.set({ muted: checked.muted, cameraOff: checked.cameraOff });
        if (!local) this.set({ error: 'Your camera and microphone are not available: the other side will not see or hear you.' });
      }
      this.set({ localStream: local });
      await this.listDevices();
    } catch (err) {
      this.set({ status: 'failed', error: messageOf(err) });
      return;
    }
    if (this.stopped) return;
    this.subscription = this.transport.join(this.peerId, {
      onData: (event) => this.onEvent(event),
      onError: (err) => this.set({ status: 'failed', error: messageOf(err) }),
    });
    window.addEventListener('online', this.onNetworkChange);
    (navigator as Navigator & { connection?: EventTarget }).connection?.addEventListener('change', this.onNetworkChange);
    this.statsTimer = setInterval(() => void this.checkStats(), STATS_EVERY_MS);
  }

  /** Camera and microphone; without a camera (or permission for it), the microphone alone; without either, listen only. */
  private async openMedia(constraints: MediaStreamConstraints): Promise<MediaStream | null> {
    try {
      return await navigator.mediaDevices.getUserMedia(constraints);
    } catch {
      try {
        return await navigator.mediaDevices.getUserMedia({ audio: constraints.audio ?? true });
      } catch {
        this.set({ error: 'Your camera and microphone are not available: the other side will not see or hear you.' });
        return null;
      }
    }
  }

  private async listDevices() {
    const devices = await navigator.mediaDevices.enumerateDevices();
    const stream = this.snapshot.localStream;
    this.set({
      microphones: devices.filter((d) => d.kind === 'audioinput'),
      cameras: devices.filter((d) => d.kind === 'videoinput'),
      microphoneId: stream?.getAudioTracks()[0]?.getSettings().deviceId ?? null,
      cameraId: stream?.getVideoTracks()[0]?.getSettings().deviceId ?? null,
    });
  }

  private send(signal: CallSignal) {
    const next = this.sending.then(() =>
      // A page that has left sends nothing more (its seat is gone: the server would refuse it), its goodbye aside.
      this.stopped && signal.kind !== 'bye' ? undefined : this.transport.signal(this.peerId, signal).catch(() => undefined),
    );
    this.sending = next;
    return next;
  }

  private sendMedia() {
    void this.send({ kind: 'media', muted: this.snapshot.muted, cameraOff: this.snapshot.cameraOff });
  }

  private onEvent(event: CallEvent) {
    if (this.stopped) return;
    if (event.kind === 'ready') {
      if (!this.pc) this.set({ status: 'waiting' });
      // Whoever is there answers 'welcome'; whoever comes later hears ours.
      void this.send({ kind: 'hello' });
    } else if (event.kind === 'left') {
      this.closePeer();
      this.set({ status: 'waiting', otherLeft: true, remoteStream: null, remoteMuted: false, remoteCameraOff: false, weak: false });
    } else if (event.kind === 'replaced') {
      this.stop();
      this.set({ status: 'replaced' });
    } else if (event.kind === 'revoked') {
      this.stop();
      this.set({ status: 'revoked', localStream: null, remoteStream: null });
    } else if (event.kind === 'signal') {
      this.handling = this.handling.then(() => this.onSignal(event.from, event.signal)).catch(() => undefined);
    }
  }

  private async onSignal(from: string, signal: CallSignal) {
    if (this.stopped) return;
    if (signal.kind === 'candidate') {
      if (from !== this.remotePeer || !this.pc || !signal.candidate) return;
      try {
        await this.pc.addIceCandidate(signal.candidate);
      } catch (err) {
        if (!this.ignoreOffer) throw err;
      }
      return;
    }
    if (signal.kind === 'media') {
      if (from === this.remotePeer) this.set({ remoteMuted: signal.muted, remoteCameraOff: signal.cameraOff });
      return;
    }
    if (signal.kind === 'bye') {
      if (from !== this.remotePeer) return;
      this.closePeer();
      this.set({ status: 'waiting', otherLeft: true, remoteStream: null, remoteMuted: false, remoteCameraOff: false, weak: false });
      return;
    }
    // hello, welcome, description: this page talks to `from` from now on (a new page of theirs starts afresh, and
    // so does a hello from the same page while the two are not connected: it gave up on a stalled connection).
    const startsAgain = signal.kind === 'hello' && from === this.remotePeer && this.pc !== null && this.pc.connectionState !== 'connected';
    if (from !== this.remotePeer || startsAgain) {
      this.closePeer();
      this.remotePeer = from;
      this.set({ otherLeft: false });
    }
    const pc = this.ensurePeer();
    if (signal.kind === 'hello' || signal.kind === 'welcome') {
      if (signal.kind === 'hello') void this.send({ kind: 'welcome' });
      this.sendMedia();
      // Back after a network change: the connection may need new paths.
      if (pc.iceConnectionState === 'failed' || pc.iceConnectionState === 'disconnected') pc.restartIce();
      return;
    }
    const offerCollision = signal.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
    this.ignoreOffer = !this.polite && offerCollision;
    if (this.ignoreOffer) return;
    await pc.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
    if (signal.type === 'offer') {
      await pc.setLocalDescription();
      const answer = pc.localDescription;
      if (answer) void this.send({ kind: 'description', type: 'answer', sdp: answer.sdp });
    }
  }

  private ensurePeer(): RTCPeerConnection {
    if (this.pc) return this.pc;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    this.pc = pc;
    this.negotiatingSince = Date.now();
    this.set({ status: 'connecting' });
    const local = this.snapshot.localStream;
    if (local) for (const track of local.getTracks()) pc.addTrack(track, local);
    // Receive both kinds even when this side sends none.
    if (!local?.getAudioTracks().length) pc.addTransceiver('audio', { direction: 'recvonly' });
    if (!local?.getVideoTracks().length) pc.addTransceiver('video', { direction: 'recvonly' });
    pc.ontrack = ({ track, streams }) => {
      if (this.pc !== pc) return;
      const stream = streams[0] ?? this.snapshot.remoteStream ?? new MediaStream();
      if (!stream.getTracks().includes(track)) stream.addTrack(track);
      this.set({ remoteStream: stream });
    };
    pc.onnegotiationneeded = async () => {
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        const offer = pc.localDescription;
        if (offer && this.pc === pc)
          void this.send({ kind: 'description', type: offer.type === 'answer' ? 'answer' : 'offer', sdp: offer.sdp });
      } catch {
        // A collision resolved by the other side's offer: nothing to send.
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onicecandidate = ({ candidate }) => {
      if (candidate && this.pc === pc) {
        const c = candidate.toJSON();
        void this.send({
          kind: 'candidate',
          candidate: {
            candidate: c.candidate ?? '',
            sdpMid: c.sdpMid ?? null,
            sdpMLineIndex: c.sdpMLineIndex ?? null,
            usernameFragment: c.usernameFragment ?? null,
          },
        });
      }
    };
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      clearTimeout(this.disconnectedTimer);
      // Any change is progress: the stall watch counts from here.
      this.negotiatingSince = Date.now();
      const state = pc.connectionState;
      if (state === 'connected') this.set({ status: 'connected' });
      else if (state === 'failed') {
        this.set({ status: 'reconnecting' });
        pc.restartIce();
      } else if (state === 'disconnected') {
        this.set({ status: 'reconnecting' });
        this.disconnectedTimer = setTimeout(() => {
          if (this.pc === pc && pc.connectionState !== 'connected') pc.restartIce();
        }, DISCONNECTED_RESTART_MS);
      }
    };
    return pc;
  }

  /** A new network (Wi-Fi to mobile data): find new paths at once instead of waiting for the old ones to time out. */
  private onNetworkChange = () => {
    if (this.pc && this.pc.connectionState !== 'closed') {
      this.set({ status: this.pc.connectionState === 'connected' ? this.snapshot.status : 'reconnecting' });
      this.pc.restartIce();
    }
  };

  /**
   * Signals travel one by one over HTTP and one may be lost (a request that failed, an answer to an offer that was
   * given way to), or a connection may never find a path (seen in CI: a page's ICE gathering that never produced a
   * candidate): the two sides would wait for each other for ever. A connection that has neither connected nor
   * changed state for STALLED_MS is started afresh: this page makes a new one and says hello again, and the other
   * page, not connected either, makes a new one too (onSignal); perfect negotiation sorts out the rest.
   */
  private restartIfStalled(pc: RTCPeerConnection) {
    if (!this.remotePeer || pc.connectionState === 'connected') return;
    if (Date.now() - this.negotiatingSince < STALLED_MS) return;
    this.closePeer();
    this.set({ status: 'connecting', remoteStream: null });
    void this.send({ kind: 'hello' });
  }

  private async checkStats() {
    const pc = this.pc;
    if (pc && pc.connectionState !== 'closed') this.restartIfStalled(pc);
    if (pc?.connectionState !== 'connected') return;
    const report = await pc.getStats();
    let rtt = 0;
    let lost = 0;
    let received = 0;
    report.forEach((s: Record<string, unknown>) => {
      if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded' && typeof s.currentRoundTripTime === 'number')
        rtt = Math.max(rtt, s.currentRoundTripTime);
      if (s.type === 'inbound-rtp') {
        lost += Number(s.packetsLost ?? 0);
        received += Number(s.packetsReceived ?? 0);
      }
    });
    const newLost = lost - this.lastLoss.lost;
    const newReceived = received - this.lastLoss.received;
    this.lastLoss = { lost, received };
    const loss = newLost + newReceived > 0 ? newLost / (newLost + newReceived) : 0;
    const weak = rtt > WEAK_RTT_S || loss > WEAK_LOSS;
    if (weak !== this.snapshot.weak) this.set({ weak });
  }

  setMuted(muted: boolean) {
    for (const t of this.snapshot.localStream?.getAudioTracks() ?? []) t.enabled = !muted;
    this.set({ muted });
    this.sendMedia();
  }

  setCameraOff(cameraOff: boolean) {
    for (const t of this.snapshot.localStream?.getVideoTracks() ?? []) t.enabled = !cameraOff;
    this.set({ cameraOff });
    this.sendMedia();
  }

  /** Another microphone or camera: its track replaces the old one in the call, without renegotiating. */
  async useDevice(kind: 'audio' | 'video', deviceId: string) {
    try {
      const fresh = await navigator.mediaDevices.getUserMedia({ [kind]: { deviceId: { exact: deviceId } } });
      const track = kind === 'audio' ? fresh.getAudioTracks()[0] : fresh.getVideoTracks()[0];
      if (!track) return;
      track.enabled = kind === 'audio' ? !this.snapshot.muted : !this.snapshot.cameraOff;
      const local = this.snapshot.localStream ?? new MediaStream();
      for (const old of kind === 'audio' ? local.getAudioTracks() : local.getVideoTracks()) {
        local.removeTrack(old);
        old.stop();
      }
      local.addTrack(track);
      const sender = this.pc?.getSenders().find((s) => s.track?.kind === kind || (s.track === null && kind === 'video'));
      if (sender) await sender.replaceTrack(track);
      else if (this.pc) this.pc.addTrack(track, local);
      // A new stream object, so the preview shows the new track.
      this.set({ localStream: new MediaStream(local.getTracks()) });
      await this.listDevices();
    } catch (err) {
      this.set({ error: `That ${kind === 'audio' ? 'microphone' : 'camera'} could not be used: ${messageOf(err)}` });
    }
  }

  private closePeer() {
    clearTimeout(this.disconnectedTimer);
    const pc = this.pc;
    this.pc = null;
    this.remotePeer = null;
    this.makingOffer = false;
    this.ignoreOffer = false;
    this.lastLoss = { lost: 0, received: 0 };
    pc?.close();
  }

  /** Ends this page's part; its seat is given up when the subscription ends, once `leaveAfter` (the goodbye) has gone. */
  private stop(leaveAfter?: Promise<unknown>) {
    this.stopped = true;
    clearInterval(this.statsTimer);
    window.removeEventListener('online', this.onNetworkChange);
    (navigator as Navigator & { connection?: EventTarget }).connection?.removeEventListener('change', this.onNetworkChange);
    const subscription = this.subscription;
    this.subscription = null;
    if (leaveAfter) void leaveAfter.finally(() => subscription?.unsubscribe());
    else subscription?.unsubscribe();
    this.closePeer();
    for (const t of this.snapshot.localStream?.getTracks() ?? []) t.stop();
  }

  /** Leaves the call: the other side is told at once (and by the server when the subscription ends). */
  hangUp() {
    if (this.stopped) return;
    // The goodbye goes while the seat is still held (a signal from a page without one is refused), then the seat is given up.
    const bye = this.subscription ? this.send({ kind: 'bye' }) : undefined;
    this.stop(bye);
    this.set({ status: 'ended', localStream: null, remoteStream: null, weak: false });
  }
}

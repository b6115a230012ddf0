import { z } from 'zod';
import { INT32_MAX, optionalText, plainText, requiredText } from '../validation.js';

/**
 * The call's inputs and outputs (decision 120), shared with the
 * call page. Signals are checked here and passed on untouched; they are
 * never stored.
 */

/** The call page opens this long before the start... */
export const CALL_OPENS_BEFORE_MS = 10 * 60_000;
/** ...and stays open this long after the planned end (a session that runs over, a reconnect). */
export const CALL_GRACE_AFTER_MS = 30 * 60_000;
/** A session description (an offer or answer) is a few kilobytes; this leaves room for many tracks and candidates. */
export const SDP_MAX = 32_000;
/** Session notes, at most. */
export const NOTES_MAX = 10_000;

/** The two places in a call: the client's, and one dietitian's. */
export const CALL_SIDES = ['client', 'team'] as const;
export type CallSide = (typeof CALL_SIDES)[number];

const appointmentId = z
  .number({ error: 'Appointment id must be a number' })
  .int('Appointment id must be a whole number')
  .min(1, 'Appointment id must be positive')
  .max(INT32_MAX, 'Appointment id is too large');
/** Each open call page makes one at random: it names that page's place in the call. */
const peerId = z.uuid('Peer id must be a UUID');

export const appointmentInput = z.object({ appointmentId });
export const joinInput = z.object({ appointmentId, peerId });

const candidate = z.object({
  candidate: plainText('Candidate').max(2000, 'Candidate is too long'),
  sdpMid: plainText('Media id').max(64, 'Media id is too long').nullable(),
  sdpMLineIndex: z.number().int().min(0).max(1000).nullable(),
  usernameFragment: plainText('Username fragment').max(256, 'Username fragment is too long').nullable().optional(),
});

/** What one side tells the other. */
export const callSignal = z.discriminatedUnion('kind', [
  /** "I am here" (sent on joining); answered with 'welcome', so each side learns of the other whoever came first. */
  z.object({ kind: z.literal('hello') }),
  z.object({ kind: z.literal('welcome') }),
  z.object({
    kind: z.literal('description'),
    type: z.enum(['offer', 'answer']),
    sdp: plainText('Session description', { multiline: true }).max(SDP_MAX, 'Session description is too long'),
  }),
  /** null: this side has gathered all its candidates. */
  z.object({ kind: z.literal('candidate'), candidate: candidate.nullable() }),
  /** What the other side shows: "muted", "camera off". */
  z.object({ kind: z.literal('media'), muted: z.boolean(), cameraOff: z.boolean() }),
  /** Hung up. */
  z.object({ kind: z.literal('bye') }),
]);
export type CallSignal = z.infer<typeof callSignal>;

export const sendSignalInput = z.object({ appointmentId, peerId, signal: callSignal });

/** What the signalling subscription sends a side. */
export type CallEvent =
  | { kind: 'ready' }
  /** `from`: the sending page's peer id (a new one means the other side reloaded: start afresh). */
  | { kind: 'signal'; from: string; signal: CallSignal }
  /** The other side's page closed or lost its connection for good. */
  | { kind: 'left' }
  /** This person opened the call in another tab or device: this page is out of the call. */
  | { kind: 'replaced' }
  /** A guest's link was revoked by the care team: her page is out of the call and the link refuses. */
  | { kind: 'revoked' };

/** The console's hint that a call's places changed: it loads who is waiting again. */
export type SeatsEvent = { kind: 'ready' } | { kind: 'seats' };

/** A guest link's parts as the guest page read them from its address (checked on the server, guest-link.ts). */
export const guestPassInput = z.object({
  appointmentId,
  v: z.string().max(12, 'The link is not complete').regex(/^\d+$/, 'The link is not complete'),
  exp: z.string().max(14, 'The link is not complete').regex(/^\d+$/, 'The link is not complete'),
  sig: z
    .string()
    .max(64, 'The link is not complete')
    .regex(/^[A-Za-z0-9_-]+$/, 'The link is not complete'),
});
export const guestInput = z.object({ pass: guestPassInput });
export const guestJoinInput = z.object({ pass: guestPassInput, peerId });
export const guestSignalInput = z.object({ pass: guestPassInput, peerId, signal: callSignal });

export const waitingCall = z.object({
  appointmentId: z.number(),
  /** The client's first name, or the visitor's name from her request. */
  name: z.string(),
  guest: z.boolean(),
  startsAt: z.date(),
  waitingSince: z.date(),
});
export type WaitingCall = z.infer<typeof waitingCall>;

export const guestLinkInfo = z.object({ url: z.string(), expiresAt: z.date() });

export const callWindowState = z.enum(['early', 'open', 'closed']);
export type CallWindowState = z.infer<typeof callWindowState>;

export const callInfo = z.object({
  appointmentId: z.number(),
  kind: z.string(),
  status: z.string(),
  startsAt: z.date(),
  endsAt: z.date(),
  opensAt: z.date(),
  closesAt: z.date(),
  state: callWindowState,
  side: z.enum(CALL_SIDES),
  clientId: z.number().nullable(),
  /** This page is a visitor's, in through her guest link. */
  guest: z.boolean(),
  /** A visitor's name from her consultation request (sessions without a client account). */
  visitorName: z.string().nullable(),
  /** The person on the other side, by first name (the care team when the client looks). */
  otherName: z.string(),
  /** The dietitian's external meeting link, for those who prefer it. */
  fallbackUrl: z.string().nullable(),
});
export type CallInfo = z.infer<typeof callInfo>;

export const iceConfig = z.object({
  iceServers: z.array(z.object({ urls: z.array(z.string()), username: z.string().optional(), credential: z.string().optional() })),
  /** TURN credentials made for this call stop working then. */
  expiresAt: z.date(),
});

/** A fallback meeting link: https only (it opens another site from our page). */
export const fallbackUrl = optionalText('Meeting link', 500).refine(
  (v) => v === null || /^https:\/\/[^\s/?#]+\.[^\s/?#]+(\/\S*)?$/i.test(v),
  'Meeting link must be an https:// address, such as https://meet.example.org/poshan',
);
export const callSettingsInput = z.object({ fallbackUrl });
export const callSettings = z.object({ fallbackUrl: z.string().nullable() });

export const saveNotesInput = z.object({
  appointmentId,
  body: requiredText('Notes are required', NOTES_MAX, { multiline: true }),
});
export const sessionNote = z.object({
  appointmentId: z.number(),
  clientId: z.number(),
  body: z.string(),
  authorName: z.string().nullable(),
  startsAt: z.date(),
  updatedAt: z.date(),
});
export type SessionNote = z.infer<typeof sessionNote>;
export const clientNotesInput = z.object({
  clientId: z.number().int().min(1).max(INT32_MAX, 'Client id is too large'),
});

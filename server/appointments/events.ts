import type { Db, DbHandle } from '../db/index.js';
import type { LiveStream } from '../realtime/live-channel.js';
import { createNotifySource, type NotifySource } from '../realtime/notify-source.js';
import * as repo from './repo.js';
import { APPOINTMENT_CHANGES, type AppointmentChange, type AppointmentEvent } from './schema.js';

/**
 * Appointments live (the live channel, realtime/live-channel.ts). Every
 * committed booking, move, cancellation or outcome, and every saved
 * availability, NOTIFYs `appointments` from inside its transaction with ids
 * only, so the hint goes out only when the change commits. A client hears of
 * her own appointments, a dietitian of every one; anyone else signed in hears
 * only that the free times changed (a cancelled session frees a slot she may
 * want). Each screen reloads what it may see. Not resumable: a reconnecting
 * screen reloads on 'ready'.
 */
export const APPOINTMENTS_CHANNEL = 'appointments';

/** One appointment changed (its client, when it has one, and its dietitian), or a dietitian's hours (appointmentId null). */
export type AppointmentNote = {
  appointmentId: number | null;
  clientId: number | null;
  dietitianId: number;
  what: AppointmentChange | 'hours';
};

const isId = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;
const isNote = (value: unknown): value is AppointmentNote => {
  const v = value as Partial<Record<string, unknown>> | null;
  if (typeof v !== 'object' || v === null || !isId(v.dietitianId)) return false;
  if (v.what === 'hours') return v.appointmentId === null && v.clientId === null;
  return APPOINTMENT_CHANGES.includes(v.what as AppointmentChange) && isId(v.appointmentId) && (v.clientId === null || isId(v.clientId));
};

/** Tells every instance, once `trx` commits, that an appointment changed. */
export function publishAppointmentChange(
  trx: Db,
  row: { id: number; client_id: number | null; dietitian_id: number },
  what: AppointmentChange,
) {
  const note: AppointmentNote = { appointmentId: row.id, clientId: row.client_id, dietitianId: row.dietitian_id, what };
  return repo.notifyAppointments(trx, APPOINTMENTS_CHANNEL, JSON.stringify(note));
}

/** Tells every instance, once `trx` commits, that a dietitian's hours (and so the free times) changed. */
export function publishHoursChange(trx: Db, dietitianId: number) {
  const note: AppointmentNote = { appointmentId: null, clientId: null, dietitianId, what: 'hours' };
  return repo.notifyAppointments(trx, APPOINTMENTS_CHANNEL, JSON.stringify(note));
}

export type AppointmentsBus = NotifySource<AppointmentNote>;

export function createAppointmentsBus(handle: DbHandle, onError: (err: Error) => void = () => {}): AppointmentsBus {
  return createNotifySource(handle, { channel: APPOINTMENTS_CHANNEL, name: 'appointments', isNote, onError });
}

/** Who watches: a client (her own appointments) or a dietitian (all of them). */
export type AppointmentViewer = { userId: number; seesAll: boolean };

export const appointmentStream: LiveStream<AppointmentViewer, AppointmentNote, AppointmentEvent> = {
  name: 'appointments',
  ready: { kind: 'ready' },
  view: (viewer, n, views) => {
    if (n.what !== 'hours' && n.appointmentId !== null && (viewer.seesAll || n.clientId === viewer.userId)) {
      const { appointmentId, what } = n;
      return views.shared('changed', () => ({ kind: 'changed', appointmentId, what }));
    }
    // A session done or missed frees no time; anything else may have changed the free times.
    return n.what === 'status' ? null : views.shared('slots', () => ({ kind: 'slots' }));
  },
};

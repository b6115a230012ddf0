import type { CreateCheckInInput } from '../../../../server/check-in/schema';
import type { CreateMealInput } from '../../../../server/journal/schema';

/** A weight made offline: one per day (the server keeps one entry per day), so its day is its key. */
export type WeightPayload = { weight: number; date: string };
export const weightKey = (p: WeightPayload) => `weight:${p.date}`;

/** A check-in made offline, with the clientRequestId it was first sent with. */
export type CheckInPayload = Omit<CreateCheckInInput, 'clientId'> & { clientRequestId: string };

/**
 * A meal logged offline, keyed by its clientEntryId; the moment as ISO text (the queue is kept as JSON). Photos go
 * only as the ids of ones uploaded before the connection dropped (a photo is uploaded as it is chosen).
 */
export type MealPayload = Omit<CreateMealInput, 'eatenAt'> & { eatenAt: string };
export const MEAL_QUEUED = 'You are offline: this meal is saved on this phone and will be sent when you are back online.';

const shorten = (text: string, max = 60) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const dayOf = (iso: string) => new Date(`${iso.slice(0, 10)}T12:00:00`).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });

/** One line for something made offline that waits to be sent (the offline banner's list). */
export function describeQueued(kind: string, payload: unknown): string {
  switch (kind) {
    case 'weight': {
      const p = payload as WeightPayload;
      return `Weight ${p.weight} kg for ${dayOf(p.date)}`;
    }
    case 'check-in': {
      const p = payload as CheckInPayload;
      return p.date ? `Check-in for ${dayOf(p.date)}` : 'Check-in';
    }
    case 'meal': {
      const p = payload as MealPayload;
      return p.description ? `Meal: ${shorten(p.description)}` : 'Meal with foods or photos';
    }
    default:
      return 'Something you made offline';
  }
}

/** One line for a message written offline: its words, else its files. */
export function describeMessage(text: string, files: number): string {
  if (text.trim()) return `Message: “${shorten(text)}”`;
  return files === 1 ? 'Message with a file' : `Message with ${files} files`;
}

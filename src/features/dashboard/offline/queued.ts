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

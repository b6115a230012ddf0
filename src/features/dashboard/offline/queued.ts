import type { CreateCheckInInput } from '../../../../server/check-in/schema';

/** A weight made offline: one per day (the server keeps one entry per day), so its day is its key. */
export type WeightPayload = { weight: number; date: string };
export const weightKey = (p: WeightPayload) => `weight:${p.date}`;

/** A check-in made offline, with the clientRequestId it was first sent with. */
export type CheckInPayload = Omit<CreateCheckInInput, 'clientId'> & { clientRequestId: string };

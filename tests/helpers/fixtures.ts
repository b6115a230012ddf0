import { createDietPlan } from '../../server/diet-plan/service.js';
import { assignSubscription } from '../../server/subscription/service.js';
import { httpClient } from './callers.js';
import { tinyPdf } from './pdf.js';
import type { TestServer, TestUser } from './server.js';

/** Data the browser tests start from: clients, an admin's API, diet plans and subscriptions. */

export type Client = TestUser & { fullName: string; height: number | null; weight: number | null };

let clientCounter = 0;

/** A client with a name, height and weight, as the login page would store them. */
export async function newClient(
  server: TestServer,
  opts: { firstName?: string; lastName?: string; heightM?: number; weightKg?: number } = {},
): Promise<Client> {
  clientCounter += 1;
  const firstName = opts.firstName ?? 'Asha';
  const lastName = opts.lastName ?? `Verma${clientCounter}`;
  const user = await server.user({ firstName, lastName, heightM: opts.heightM, weightKg: opts.weightKg });
  return { ...user, fullName: `${firstName} ${lastName}`, height: opts.heightM ?? null, weight: opts.weightKg ?? null };
}

/** The typed API as an admin (dietitian) calls it. */
export async function adminApi(server: TestServer) {
  const admin = await server.user({ role: 'admin' });
  return httpClient(server.url, admin.token);
}

export async function addDietPlans(server: TestServer, clientId: number, months: number[]) {
  const ids: number[] = [];
  for (const m of months) {
    const mm = String(m).padStart(2, '0');
    const plan = await createDietPlan(server.deps.db, {
      clientId,
      title: `Plan ${mm}`,
      from: `2026-${mm}-01`,
      to: `2026-${mm}-28`,
      pdf: tinyPdf(),
    });
    ids.push(plan.id);
  }
  return ids;
}

export function addSubscription(server: TestServer, clientId: number, startDate: string, amountReceived = 16499) {
  return assignSubscription(server.deps.db, { clientId, planType: 'WL', planId: 'tier-lifestyle', startDate, amountReceived });
}

/** Today as the browser's date input sees it (the machine's own time zone). */
export function localDay(offsetDays = 0) {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { AppDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { planFoods, totalsNutrientsFor } from './foods.js';
import { analysePlan, type DietPlanView } from './nutrition.js';
import { portionText } from './portion.js';
import * as repo from './repo.js';
import { PLAN_MISSING, storedContent } from './service.js';
import { signPdfLink } from './signed-url.js';

/**
 * One plan as its client (or a dietitian) reads it: the composed days, each linked item's grams and
 * nutrients, and each meal's and day's totals, computed with the same functions as the builder and
 * the PDF. A client whose dietitian hides numbers gets the plan without them; another client's
 * plan reads as missing.
 */
export async function readDietPlan(
  deps: Pick<AppDeps, 'db' | 'secret' | 'config'>,
  actor: SessionUser,
  input: { id: number },
): Promise<DietPlanView> {
  const plan = await repo.findPlanWithClient(deps.db, input.id);
  if (!plan || (actor.role !== ROLE.admin && plan.client_id !== actor.id)) throw notFound(PLAN_MISSING);
  const content = plan.content === null ? null : storedContent(plan.content);
  const [foods, shown] = await Promise.all([planFoods(deps.db, content?.days ?? []), totalsNutrientsFor(deps.db, plan.client_id)]);
  const numbers = actor.role === ROLE.admin || shown.showNumbers;
  const sums = content ? analysePlan(content.days, foods) : [];
  return {
    id: plan.id,
    clientId: plan.client_id,
    title: plan.title,
    from: plan.from_date,
    to: plan.to_date,
    version: plan.version,
    source: plan.source,
    showTotals: content?.showTotals ?? false,
    numbers,
    nutrients: shown.keys,
    days:
      content?.days.map((day, d) => ({
        label: day.label,
        total: numbers ? (sums[d]?.total ?? null) : null,
        meals: day.meals.map((meal, m) => ({
          time: meal.time,
          name: meal.name,
          notes: meal.notes ?? null,
          total: numbers ? (sums[d]?.meals[m]?.total ?? null) : null,
          items: meal.items.map((item, i) => {
            const sum = sums[d]?.meals[m]?.items[i];
            return {
              food: item.food,
              ...(item.foodId === undefined ? {} : { foodId: item.foodId }),
              portion: item.portion,
              portionText: portionText(item.portion),
              grams: numbers ? (sum?.grams ?? null) : null,
              nutrients: numbers ? (sum?.nutrients ?? null) : null,
            };
          }),
        })),
      })) ?? null,
    guidelines: content?.guidelines ?? [],
    pdfURL: signPdfLink(deps.secret, { id: plan.id, clientId: plan.client_id }, { baseUrl: deps.config.publicUrl }),
  };
}

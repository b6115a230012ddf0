import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { formatDay } from '../format.js';
import { type MailDeps, mailDietPlanPublished } from '../notifications/client-mail.js';
import { renderDietPlanPdf } from '../pdf/diet-plan.js';
import { noteFoodUse } from '../nutrition/search.js';
import { checkedPlanFoods, totalsNutrientsFor } from './foods.js';
import { linkedFoodIds } from './nutrition.js';
import * as repo from './repo.js';
import type { ComposedDietPlan, ReviseDietPlanInput } from './schema.js';
import {
  clientNameOf,
  coverageWarning,
  createDietPlan,
  decodePdf,
  fullName,
  overlapWarning,
  PLAN_MISSING,
  requireAcknowledged,
  storedContent,
} from './service.js';

/**
 * The console composes plans: days × meals of foods, each linked to the food library or free text,
 * rendered into a branded PDF with the client's and the dietitian's names (and each day's totals
 * when the dietitian asks), then saved as a new plan or a new version of one.
 */

/** The PDF of a composed plan, its linked foods checked (a 400 names each one that cannot be weighed). */
async function render(db: Db, actor: SessionUser, clientId: number, plan: ComposedDietPlan) {
  const [clientName, foods, shown] = await Promise.all([
    clientNameOf(db, clientId),
    checkedPlanFoods(db, plan.days),
    totalsNutrientsFor(db, clientId),
  ]);
  return renderDietPlanPdf({ ...plan, clientName, dietitian: actor, foods: [...foods.values()], totals: shown.keys });
}

const mealCount = (plan: ComposedDietPlan) => plan.days.reduce((n, d) => n + d.meals.length, 0);

/** A new plan composed of days × meals, rendered into a branded PDF on the server. */
export async function composePlan(
  deps: MailDeps,
  actor: SessionUser,
  input: { clientId: number; plan: ComposedDietPlan; acknowledgeWarnings?: boolean },
) {
  // Warnings first (a client that does not exist is a 404 before them): the render is the slow part.
  await clientNameOf(deps.db, input.clientId);
  requireAcknowledged([coverageWarning(input.plan), await overlapWarning(deps.db, input.clientId, input.plan)], input.acknowledgeWarnings);
  const pdf = await render(deps.db, actor, input.clientId, input.plan);
  const saved = await deps.db.transaction().execute(async (trx) => {
    const { plan } = input;
    const created = await createDietPlan(trx, {
      clientId: input.clientId,
      title: plan.title,
      from: plan.from,
      to: plan.to,
      pdf,
      createdBy: actor.id,
    });
    await repo.setComposedContent(trx, created.id, plan);
    await noteFoodUse(trx, actor.id, linkedFoodIds(plan.days));
    await recordAudit(trx, actor, {
      action: 'diet_plan.composed',
      entity: 'diet_plan',
      entityId: created.id,
      summary: `Composed diet plan "${plan.title}" (${formatDay(plan.from)} to ${formatDay(plan.to)}, ${plan.days.length} days, ${mealCount(plan)} meals) for client #${input.clientId}`,
      details: { clientId: input.clientId, title: plan.title, from: plan.from, to: plan.to, days: plan.days.length, bytes: pdf.byteLength },
    });
    return { id: created.id, version: 1, message: `"${plan.title}" was rendered to PDF and is now in the client’s diet plans.` };
  });
  await mailDietPlanPublished(deps, saved.id);
  return saved;
}

/** The composer's preview: the PDF exactly as it would be saved, without saving it. */
export async function previewPlan(db: Db, actor: SessionUser, input: { clientId: number; plan: ComposedDietPlan }) {
  const pdf = await render(db, actor, input.clientId, input.plan);
  return { filename: `preview-${input.plan.from}-to-${input.plan.to}.pdf`, base64: Buffer.from(pdf).toString('base64') };
}

/**
 * Editing makes a new version: the current one is archived (in the same
 * transaction) and the plan row, which the client's list reads, becomes the
 * new one. Refused when someone saved a newer version since the editor opened it.
 */
export async function revisePlan(deps: MailDeps, actor: SessionUser, input: ReviseDietPlanInput) {
  const { db } = deps;
  const uploaded = input.source === 'upload' && input.pdfBase64 ? decodePdf(input.pdfBase64) : undefined;
  const current = await repo.findPlanWithClient(db, input.id);
  if (!current) throw notFound(PLAN_MISSING);
  // An edit is asked to confirm only what it changes: a plan saved over its warnings once is not asked again.
  const dates = input.source === 'composed' ? input.plan : input;
  const datesChanged = dates.from !== current.from_date || dates.to !== current.to_date;
  const daysBefore = current.content === null ? null : storedContent(current.content)?.days.length;
  requireAcknowledged(
    [
      input.source === 'composed' && (datesChanged || daysBefore !== input.plan.days.length) ? coverageWarning(input.plan) : null,
      datesChanged ? await overlapWarning(db, current.client_id, dates, input.id) : null,
    ],
    input.acknowledgeWarnings,
  );
  const rendered = input.source === 'composed' ? await render(db, actor, current.client_id, input.plan) : undefined;
  const saved = await db.transaction().execute(async (trx) => {
    const locked = await repo.lockPlanWithClient(trx, input.id);
    if (!locked) throw notFound(PLAN_MISSING);
    if (locked.version !== input.expectedVersion) {
      throw conflict(
        `This plan was changed by someone else while you were editing (it is now version ${locked.version}). Reload it to see their changes, then edit again.`,
      );
    }
    if (input.source === 'upload' && !uploaded && locked.source === 'composed') {
      const message = 'Choose a PDF file to upload: this plan is composed, so there is no uploaded PDF to keep.';
      throw badRequest(message, { pdfBase64: [message] });
    }
    const version = locked.version + 1;
    await repo.archiveCurrentVersion(trx, input.id);
    const next =
      input.source === 'composed'
        ? {
            title: input.plan.title,
            from: input.plan.from,
            to: input.plan.to,
            source: 'composed' as const,
            content: input.plan,
            pdf: rendered,
          }
        : { title: input.title, from: input.from, to: input.to, source: 'upload' as const, content: null, pdf: uploaded };
    await repo.writeNewVersion(trx, input.id, version, { ...next, createdBy: actor.id });
    if (input.source === 'composed') await noteFoodUse(trx, actor.id, linkedFoodIds(input.plan.days));
    await recordAudit(trx, actor, {
      action: 'diet_plan.revised',
      entity: 'diet_plan',
      entityId: input.id,
      summary: `Saved version ${version} of diet plan "${next.title}" (${formatDay(next.from)} to ${formatDay(next.to)}) for ${fullName(locked)}`,
      details: {
        clientId: locked.client_id,
        version,
        source: next.source,
        title: next.title,
        from: next.from,
        to: next.to,
        newPdf: Boolean(next.pdf),
      },
    });
    return { id: input.id, version, message: `Version ${version} saved: the client now sees it.` };
  });
  await mailDietPlanPublished(deps, saved.id);
  return saved;
}

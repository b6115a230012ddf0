import { recordAudit } from '../audit/record.js';
import { clientNotFound, clientToActFor, requireClient } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { AppError, badRequest, forbidden, issueMessage, notFound, zodFieldErrors } from '../errors.js';
import { mapPage } from '../db/paging.js';
import { type MailDeps, mailDietPlanPublished } from '../notifications/client-mail.js';
import { findClientAccount } from '../users/repo.js';
import * as repo from './repo.js';
import {
  type ComposedDietPlan,
  composedDietPlanSchema,
  DIET_PLAN_PDF_MAX_BYTES,
  type DietPlanDetail,
  type DietPlanList,
  type ListDietPlansInput,
  newDietPlanFields,
} from './schema.js';
import { checkPdfLink, signPdfLink } from './signed-url.js';
import { formatDay } from '../format.js';
import { DAY_MS } from '../time.js';

/** One page of a client's plans, newest first, each with a fresh signed PDF link. */
export async function listDietPlans(
  deps: Pick<AppDeps, 'db' | 'secret' | 'config'>,
  actor: SessionUser,
  input: ListDietPlansInput,
  now = Date.now(),
): Promise<DietPlanList> {
  const clientId = await clientToActFor(deps.db, actor, input.user, 'user');
  const page = await repo.pageClientPlans(deps.db, clientId, { page: input.page, pageSize: input.count });
  return {
    data: page.items.map((r) => ({
      id: r.id,
      title: r.title,
      from: r.from_date,
      to: r.to_date,
      pdfURL: signPdfLink(deps.secret, { id: r.id, clientId: r.client_id }, { baseUrl: deps.config.publicUrl, now }),
    })),
    count: page.total,
  };
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const EOF_MARKER = Buffer.from('%%EOF');
const MB = 1024 * 1024;
/** Rounded up, so a file just over the cap never reads as exactly the cap. */
const sizeInMb = (bytes: number) => `${Math.ceil((bytes / MB) * 10) / 10} MB`;

/** Checks by content, not by name or declared type: a PDF header, an end marker, and the size cap. */
export function pdfProblem(pdf: Uint8Array): string | null {
  if (pdf.byteLength === 0) return 'The PDF file is empty.';
  if (!PDF_MAGIC.every((byte, i) => pdf[i] === byte)) return 'The diet plan must be a PDF file (this file is not a PDF).';
  if (pdf.byteLength > DIET_PLAN_PDF_MAX_BYTES) {
    return `The PDF must be at most ${sizeInMb(DIET_PLAN_PDF_MAX_BYTES)} (this one is ${sizeInMb(pdf.byteLength)}).`;
  }
  const tail = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).subarray(-1024);
  if (!tail.includes(EOF_MARKER)) return 'The PDF looks incomplete (it has no end-of-file marker). Please export or upload it again.';
  return null;
}

export type NewDietPlan = { clientId: number; title: string; from: string; to: string; pdf: Uint8Array; createdBy?: number | null };

/** Stores a plan for a client. Every problem is a 400 whose message says what to fix. */
export async function createDietPlan(db: Db, input: NewDietPlan) {
  const parsed = newDietPlanFields.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw badRequest(issueMessage(first), zodFieldErrors(parsed.error));
  }
  const problem = pdfProblem(input.pdf);
  if (problem) throw badRequest(problem, { pdf: [problem] });
  const { clientId, title, from, to } = parsed.data;
  await requireClient(db, clientId, 'clientId');
  const row = await repo.insertPlan(db, { clientId, title, from, to, pdf: input.pdf, createdBy: input.createdBy ?? null });
  return { id: row.id, clientId: row.client_id, title: row.title, from: row.from_date, to: row.to_date, bytes: row.pdf_bytes };
}

export const INVALID_LINK_MESSAGE = 'This download link is not valid. Open My Diet Plans and choose Download PDF again.';
export const EXPIRED_LINK_MESSAGE = 'This download link has expired. Open My Diet Plans and choose Download PDF again.';

/**
 * The PDF behind a signed link. An unknown plan and a wrong signature get the
 * same answer, so links reveal nothing about other clients' plans.
 */
export async function openSignedPdf(
  deps: Pick<AppDeps, 'db' | 'secret'>,
  input: { id: number; exp?: string; sig?: string },
  now = Date.now(),
) {
  const { db } = deps;
  const planId = input.id;
  const owner = await repo.findPlanOwner(db, planId);
  const check = checkPdfLink(deps.secret, { id: planId, clientId: owner?.client_id ?? 0 }, { exp: input.exp, sig: input.sig }, now);
  if (!check.ok && check.reason === 'expired') throw forbidden(EXPIRED_LINK_MESSAGE);
  if (!owner || !check.ok) throw forbidden(INVALID_LINK_MESSAGE);
  const plan = await repo.findPlanPdf(db, planId);
  if (!plan) throw forbidden(INVALID_LINK_MESSAGE); // deleted between the two reads
  return { id: plan.id, from: plan.from_date, to: plan.to_date, pdf: plan.pdf_data };
}

/* The console's side: a dietitian lists, uploads, composes, revises and deletes plans. */

type Deps = Pick<AppDeps, 'db' | 'secret' | 'config'>;

export const PLAN_MISSING = 'That diet plan does not exist.';
export const fullName = (u: { first_name: string; last_name: string | null }) => `${u.first_name} ${u.last_name ?? ''}`.trim();

/** The bytes of an uploaded file, checked by content (a PDF header and end marker, at most 10 MB). */
export function decodePdf(base64: string): Uint8Array {
  const pdf = new Uint8Array(Buffer.from(base64, 'base64'));
  const problem = pdfProblem(pdf);
  if (problem) throw badRequest(problem, { pdf: [problem] });
  return pdf;
}

export async function clientNameOf(db: Db, clientId: number) {
  const client = await findClientAccount(db, clientId);
  if (!client) throw clientNotFound('clientId');
  return fullName(client);
}

/* Warnings: a plan that is probably a mistake is saved only once the dietitian confirms it. */

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const dayRange = (from: string, to: string) => `${formatDay(from)} – ${formatDay(to)}`;
const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * A composed plan with fewer days than its dates need: a one-day plan for a week leaves the client
 * six days without guidance, or repeating one day without being told to. A week of days for a month
 * (a weekly rotation) is normal, so only fewer than seven days count.
 */
export function coverageWarning(plan: Pick<ComposedDietPlan, 'from' | 'to' | 'days'>): string | null {
  const period = daysBetween(plan.from, plan.to);
  const listed = plan.days.length;
  if (listed >= Math.min(7, period)) return null;
  return `This plan lists ${count(listed, 'day')} for a ${period}-day period (${dayRange(plan.from, plan.to)}): add the missing days or shorten the dates, unless the client is meant to repeat ${listed === 1 ? 'it' : 'them'}.`;
}

/** Dates over another plan of the client's: both would show in My Diet Plans for those days. */
export async function overlapWarning(db: Db, clientId: number, range: { from: string; to: string }, exceptPlanId?: number) {
  const others = await repo.overlappingPlans(db, clientId, range, exceptPlanId);
  if (others.length === 0) return null;
  const named = others.slice(0, 3).map((p) => `“${p.title}” (${dayRange(p.from_date, p.to_date)})`);
  const more = others.length > 3 ? ', and more' : '';
  return `These dates overlap the client’s ${others.length === 1 ? 'plan' : 'plans'} ${named.join(', ')}${more}: the client will see both for those days.`;
}

/** 409 until the caller has seen the warnings and sends acknowledgeWarnings: true. */
export function requireAcknowledged(warnings: (string | null)[], acknowledged: boolean | undefined) {
  const found = warnings.filter((w): w is string => w !== null);
  if (found.length === 0 || acknowledged) return;
  throw new AppError('CONFLICT', `${found.join(' ')} Confirm to save it anyway.`, { fieldErrors: { acknowledgeWarnings: found } });
}

type SummaryRow = Awaited<ReturnType<typeof repo.pagePlans>>['items'][number];
const toSummary = (r: SummaryRow) => ({
  id: r.id,
  client: { id: r.client_id, fullName: fullName(r) },
  title: r.title,
  from: r.from_date,
  to: r.to_date,
  version: r.version,
  source: r.source,
  bytes: r.pdf_bytes,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The console's list: every client's plans, newest first, or one client's. */
export async function listAllDietPlans(db: Db, input: { clientId?: number; page: number; pageSize: number }) {
  return mapPage(await repo.pagePlans(db, input), toSummary);
}

/** A composed plan as stored (JSON text on one driver, an object on the other); null if it no longer parses. */
export function storedContent(content: unknown): ComposedDietPlan | null {
  const parsed = composedDietPlanSchema.safeParse(typeof content === 'string' ? JSON.parse(content) : content);
  return parsed.success ? parsed.data : null;
}

export async function getDietPlan(deps: Deps, input: { id: number }): Promise<DietPlanDetail> {
  const { id } = input;
  const plan = await repo.findPlanWithClient(deps.db, id);
  if (!plan) throw notFound(PLAN_MISSING);
  const [archived, creator] = await Promise.all([repo.listArchivedVersions(deps.db, id), repo.creatorName(deps.db, plan.created_by)]);
  return {
    ...toSummary(plan),
    content: plan.content === null ? null : storedContent(plan.content),
    versions: [
      {
        version: plan.version,
        title: plan.title,
        from: plan.from_date,
        to: plan.to_date,
        source: plan.source,
        bytes: plan.pdf_bytes,
        createdAt: plan.updated_at,
        createdBy: creator ? fullName(creator) : null,
        current: true,
      },
      ...archived.map((v) => ({
        version: v.version,
        title: v.title,
        from: v.from_date,
        to: v.to_date,
        source: v.source,
        bytes: v.pdf_bytes,
        createdAt: v.created_at,
        createdBy: v.first_name ? fullName({ first_name: v.first_name, last_name: v.last_name }) : null,
        current: false,
      })),
    ],
    pdfURL: signPdfLink(deps.secret, { id: plan.id, clientId: plan.client_id }, { baseUrl: deps.config.publicUrl }),
  };
}

/** A new plan from an uploaded PDF (createDietPlan checks and stores it). */
export async function uploadPlan(
  deps: MailDeps,
  actor: SessionUser,
  input: { clientId: number; title: string; from: string; to: string; pdfBase64: string; acknowledgeWarnings?: boolean },
) {
  const pdf = decodePdf(input.pdfBase64);
  await clientNameOf(deps.db, input.clientId);
  requireAcknowledged([await overlapWarning(deps.db, input.clientId, input)], input.acknowledgeWarnings);
  const saved = await deps.db.transaction().execute(async (trx) => {
    const created = await createDietPlan(trx, {
      clientId: input.clientId,
      title: input.title,
      from: input.from,
      to: input.to,
      pdf,
      createdBy: actor.id,
    });
    await recordAudit(trx, actor, {
      action: 'diet_plan.uploaded',
      entity: 'diet_plan',
      entityId: created.id,
      summary: `Uploaded diet plan "${created.title}" (${formatDay(created.from)} to ${formatDay(created.to)}) for client #${created.clientId}`,
      details: { clientId: created.clientId, title: created.title, from: created.from, to: created.to, bytes: created.bytes },
    });
    return { id: created.id, version: 1, message: `"${created.title}" is now in the client’s diet plans.` };
  });
  await mailDietPlanPublished(deps, saved.id);
  return saved;
}

export async function versionPdf(db: Db, input: { id: number; version: number }) {
  const { id, version } = input;
  const row = await repo.pdfOfVersion(db, id, version);
  if (!row) throw notFound('That version of the plan does not exist.');
  return {
    filename: `diet-plan-${id}-v${row.version}-${row.from_date}-to-${row.to_date}.pdf`,
    base64: Buffer.from(row.pdf_data).toString('base64'),
  };
}

export async function removePlan(db: Db, actor: SessionUser, input: { id: number }) {
  const { id } = input;
  return db.transaction().execute(async (trx) => {
    const plan = await repo.lockPlanWithClient(trx, id);
    if (!plan) throw notFound(PLAN_MISSING);
    await repo.deletePlan(trx, id);
    await recordAudit(trx, actor, {
      action: 'diet_plan.deleted',
      entity: 'diet_plan',
      entityId: id,
      summary: `Deleted diet plan "${plan.title}" (version ${plan.version}) of ${fullName(plan)}`,
      details: { clientId: plan.client_id, versions: plan.version },
    });
    return { message: `"${plan.title}" was deleted with all its versions.` };
  });
}

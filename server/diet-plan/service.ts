import { clientToActFor, requireClient } from '../auth/guards.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest, forbidden, issueMessage, zodFieldErrors } from '../errors.js';
import * as repo from './repo.js';
import { DIET_PLAN_PDF_MAX_BYTES, type DietPlanList, type ListDietPlansInput, newDietPlanFields } from './schema.js';
import { checkPdfLink, signPdfLink } from './signed-url.js';

/** What signing a PDF link needs: the app secret and, when known, the public origin. */
export type PdfLinkSigner = { secret: string; baseUrl?: string; now?: () => number };

/** One page of a client's plans, newest first, each with a fresh signed PDF link. */
export async function listDietPlans(db: Db, actor: SessionUser, input: ListDietPlansInput, signer: PdfLinkSigner): Promise<DietPlanList> {
  const clientId = await clientToActFor(db, actor, input.user, 'user');
  const [rows, count] = await Promise.all([
    repo.listPlans(db, clientId, { offset: input.page * input.count, limit: input.count }),
    repo.countPlans(db, clientId),
  ]);
  const now = signer.now?.() ?? Date.now();
  return {
    data: rows.map((r) => ({
      id: r.id,
      from: r.from_date,
      to: r.to_date,
      pdfURL: signPdfLink(signer.secret, { id: r.id, clientId: r.client_id }, { baseUrl: signer.baseUrl, now }),
    })),
    count,
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
export async function openSignedPdf(db: Db, secret: string, planId: number, query: { exp?: string; sig?: string }, now = Date.now()) {
  const owner = await repo.findPlanOwner(db, planId);
  const check = checkPdfLink(secret, { id: planId, clientId: owner?.client_id ?? 0 }, query, now);
  if (!check.ok && check.reason === 'expired') throw forbidden(EXPIRED_LINK_MESSAGE);
  if (!owner || !check.ok) throw forbidden(INVALID_LINK_MESSAGE);
  const plan = await repo.findPlanPdf(db, planId);
  if (!plan) throw forbidden(INVALID_LINK_MESSAGE); // deleted between the two reads
  return { id: plan.id, from: plan.from_date, to: plan.to_date, pdf: plan.pdf_data };
}

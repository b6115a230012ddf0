import { recordAudit } from '../audit/record.js';
import { clientToActFor } from '../auth/guards.js';
import { ROLE } from '../auth/roles.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import { badRequest, zodFieldErrors } from '../errors.js';
import type { Nutrients } from './nutrients.js';
import {
  ACTIVITY_KEYS,
  chosenMicronutrients,
  type SetTargetsInput,
  type SuggestionInput,
  type SuggestionAnswer,
  suggestionInput,
  targetsBasis,
  type TargetsView,
} from './targets-schema.js';
import { gramsFromPercent, suggestTargets } from './targets-suggest.js';
import * as repo from './targets-repo.js';

/**
 * A client's daily nutrition targets: the dietitian sets them (from a suggestion or by hand) and
 * decides whether the client sees numbers at all. A client reads their own; while numbers are
 * hidden from them the answer carries none (not only the screens: every client API).
 */

function toView(clientId: number, row: repo.TargetsRow | undefined, numbersForViewer: boolean): TargetsView {
  const showNumbers = row?.show_numbers ?? true;
  const targets = (row?.targets ?? {}) as Nutrients;
  const visible = numbersForViewer || showNumbers;
  const basis = row?.basis ? targetsBasis.safeParse(row.basis) : null;
  return {
    clientId,
    set: row !== undefined,
    showNumbers,
    targets: visible ? targets : null,
    micronutrients: visible ? chosenMicronutrients(targets) : [],
    basis: visible && basis?.success ? basis.data : null,
    updatedAt: row ? row.updated_at.toISOString() : null,
  };
}

/** `GET /api/nutrition-targets`: a client their own (no numbers while hidden from them), a dietitian any client's. */
export async function getTargets(db: Db, actor: SessionUser, clientId: number | undefined): Promise<TargetsView> {
  const id = await clientToActFor(db, actor, clientId, 'clientId');
  return toView(id, await repo.findTargets(db, id), actor.role === ROLE.admin);
}

/** Whether the client sees numbers (true until a dietitian says otherwise): for every client API that answers with amounts. */
export async function clientSeesNumbers(db: Db, clientId: number): Promise<boolean> {
  return (await repo.findTargets(db, clientId))?.show_numbers ?? true;
}

/**
 * `PUT /api/nutrition-targets` (dietitians): the whole set of a client's targets. Macronutrients
 * given as a percentage of energy become grams (4/4/9 kcal per g) and take the place of any grams
 * sent for the same nutrient; energy is then required.
 */
export async function setTargets(db: Db, actor: SessionUser, input: SetTargetsInput, now: Date): Promise<TargetsView> {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  const targets: Nutrients = { ...input.targets };
  const percent = input.percentOfEnergy && Object.keys(input.percentOfEnergy).length > 0 ? input.percentOfEnergy : null;
  if (percent) {
    if (targets.energyKcal === undefined) {
      const message = 'Give an energy target (energyKcal) to set macronutrients as a percentage of energy';
      throw badRequest(message, { 'targets.energyKcal': [message] });
    }
    const sum = (percent.proteinG ?? 0) + (percent.carbohydrateG ?? 0) + (percent.fatG ?? 0);
    if (sum > 100.5) {
      const message = `Protein, carbohydrate and fat add up to ${Math.round(sum)} % of energy, more than 100 %`;
      throw badRequest(message, { percentOfEnergy: [message] });
    }
    Object.assign(targets, gramsFromPercent(targets.energyKcal, percent));
  }
  const basis = { suggestion: input.suggestion ?? null, percentOfEnergy: percent };
  const row = await db.transaction().execute(async (trx) => {
    const saved = await repo.upsertTargets(trx, { clientId, targets, basis, showNumbers: input.showNumbers, setBy: actor.id, at: now });
    await recordAudit(trx, actor, {
      action: 'nutrition-targets.set',
      entity: 'client',
      entityId: clientId,
      summary: `Set the daily nutrition targets of client #${clientId}${input.showNumbers ? '' : ' (numbers hidden from the client)'}`,
      details: { nutrients: Object.keys(targets), showNumbers: input.showNumbers },
    });
    return saved;
  });
  return toView(clientId, row, true);
}

const CM_PER_M = 100;

/**
 * What the record says of the person, for the suggestion form: latest logged weight (else the
 * account's), height, age (the consultation's, aged by the years since), sex and the intake's
 * activity. Whatever is unknown is left out for the dietitian to fill.
 */
export async function personFor(db: Db, clientId: number, now: Date): Promise<Partial<SuggestionInput>> {
  const facts = await repo.personFacts(db, clientId);
  const person: Partial<SuggestionInput> = {};
  const weight = facts.weight?.weight_kg ?? facts.account?.weight_kg;
  if (weight) person.weightKg = Math.round(weight * 10) / 10;
  if (facts.account?.height_m) person.heightCm = Math.round(facts.account.height_m * CM_PER_M);
  if (facts.consultation) {
    const years = Math.floor((now.getTime() - facts.consultation.created_at.getTime()) / (365.25 * 24 * 3600 * 1000));
    person.ageYears = facts.consultation.age + Math.max(0, years);
    if (facts.consultation.gender === 1) person.sex = 'male';
    if (facts.consultation.gender === 2) person.sex = 'female';
  }
  const activity = (facts.intake?.answers as { activityLevel?: unknown } | null)?.activityLevel;
  if (typeof activity === 'string' && (ACTIVITY_KEYS as readonly string[]).includes(activity)) {
    person.activity = activity as SuggestionInput['activity'];
  }
  return person;
}

/** The record's facts about a client, for the suggestion form. */
export async function factsFor(db: Db, actor: SessionUser, clientId: number, now: Date): Promise<Partial<SuggestionInput>> {
  return personFor(db, await clientToActFor(db, actor, clientId, 'clientId'), now);
}

/**
 * A suggestion for a client (dietitians): the record's facts, overridden by what the dietitian
 * typed; 400 naming every fact still missing.
 */
export async function suggestFor(
  db: Db,
  actor: SessionUser,
  input: { clientId: number; person?: Partial<SuggestionInput> },
  now: Date,
): Promise<SuggestionAnswer> {
  const clientId = await clientToActFor(db, actor, input.clientId, 'clientId');
  const fromRecord = await personFor(db, clientId, now);
  const defined = Object.fromEntries(Object.entries(input.person ?? {}).filter(([, v]) => v !== undefined));
  const parsed = suggestionInput.safeParse({ ...fromRecord, ...defined });
  if (!parsed.success) {
    const fieldErrors = zodFieldErrors(parsed.error);
    const missing = Object.values(fieldErrors).flat().join('; ');
    throw badRequest(
      `A suggestion needs the client’s age, sex, weight, height and activity (the record lacks some): ${missing}`,
      fieldErrors,
    );
  }
  return { ...suggestTargets(parsed.data), fromRecord };
}

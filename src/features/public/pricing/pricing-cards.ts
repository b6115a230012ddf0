import { findPlan, type Plan, type PlanId, type PlanType, plansOfType, TIER_FEATURES } from '../../../../server/catalogue/plans';

/**
 * Three tier cards per plan type. Weight Loss and Weight Gain have
 * exactly three tiers in the catalogue (1 month, 6 months featured, 1 year).
 * Disease Management (7 plans) and Lifestyle (6 plans) have more, so the
 * cards show the three most requested and the note below the cards names the
 * rest, with a link to book a consultation:
 *   DP: Thyroid, PCOD/PCOS (highlighted), Diabetes — the conditions the service
 *       names first besides hypertension;
 *   LP: Acidity/Constipation/Gastric, Basic Food Guidance (highlighted),
 *       Post Pregnancy.
 * The catalogue has no 6-month condition plan, so the highlighted card there
 * is the most requested one rather than `featured`.
 */
const CONDITION_CARDS: Record<'DP' | 'LP', { ids: [PlanId, PlanId, PlanId]; highlighted: PlanId }> = {
  DP: { ids: ['tier-thyroid', 'tier-pcod', 'tier-diabetes'], highlighted: 'tier-pcod' },
  LP: { ids: ['tier-digestion', 'tier-basic-guidance', 'tier-post-pregnancy'], highlighted: 'tier-basic-guidance' },
};

export type PricingCard = { plan: Plan; highlighted: boolean; badge: string };

export function pricingCards(type: PlanType): PricingCard[] {
  if (type === 'WL' || type === 'WG') {
    return plansOfType(type).map((plan) => ({ plan, highlighted: plan.featured, badge: plan.featured ? 'Most popular' : '' }));
  }
  const { ids, highlighted } = CONDITION_CARDS[type];
  return ids.map((id) => {
    const plan = findPlan(type, id);
    if (!plan) throw new Error(`The catalogue has no ${type} plan ${id}`);
    return { plan, highlighted: id === highlighted, badge: id === highlighted ? 'Most requested' : '' };
  });
}

/** The plans of a type that have no card of their own (named in the note). */
export function otherPlans(type: PlanType): Plan[] {
  const shown = new Set(pricingCards(type).map((c) => c.plan.id));
  return plansOfType(type).filter((p) => !shown.has(p.id));
}

/** Included features, then crossed-out ones, in the catalogue's feature order. */
export function cardFeatures(plan: Plan): { feature: string; included: boolean }[] {
  const order = (f: string) => {
    const i = (TIER_FEATURES as readonly string[]).indexOf(f);
    return i === -1 ? TIER_FEATURES.length : i;
  };
  return [
    ...plan.features.map((feature) => ({ feature, included: true })),
    ...plan.excludedFeatures.map((feature) => ({ feature, included: false })),
  ].sort((a, b) => order(a.feature) - order(b.feature));
}

/** 'tier-commitment' → 'Commitment' (the tier names the Growth/Momentum note continues). */
export const tierLabel = (plan: Plan) =>
  plan.type === 'WL' || plan.type === 'WG' ? plan.id.replace('tier-', '').replace(/^./, (c) => c.toUpperCase()) : plan.duration;

/** The plan's name as the chat message reads it: "…the PCOD/PCOS plan", not "…the PCOD/PCOS Plan plan". */
export const chatPlanName = (plan: Plan) => plan.name.replace(/ Plan$/, '');

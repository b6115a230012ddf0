import { groupRupees } from '../format.js';

/*
 * The plan catalogue, one typed module shared by the
 * pricing page, the server's subscriptions and the demo seed. Prices are
 * whole rupees. Pure data: safe to import in the browser.
 */

export const PLAN_TYPES = ['WL', 'WG', 'DP', 'LP'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const PLAN_TYPE_LABELS: Record<PlanType, string> = {
  WL: 'Weight Loss Plan',
  WG: 'Weight Gain/Gym Plan',
  DP: 'Disease Management Plan',
  LP: 'Lifestyle Plan',
};
export const DEFAULT_PLAN_TYPE: PlanType = 'WL';

export const PLAN_IDS = [
  'tier-kickstart',
  'tier-commitment',
  'tier-lifestyle',
  'tier-pcod',
  'tier-thyroid',
  'tier-diabetes',
  'tier-hypertension',
  'tier-kidney',
  'tier-liver',
  'tier-cholesterol',
  'tier-digestion',
  'tier-skin-care',
  'tier-marriage',
  'tier-lactating',
  'tier-post-pregnancy',
  'tier-basic-guidance',
] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type Plan = {
  id: PlanId;
  type: PlanType;
  name: string;
  href: string;
  /** List price as printed (spec: "price (list price text)"). */
  price: string;
  /** List price in rupees. */
  listPrice: number;
  /** Selling price in rupees. */
  sellPrice: number;
  duration: string;
  /** Months of check-in cadence, and of the subscription unless durationDays is given. */
  durationMonths: number;
  /** Plans sold by the week last exactly this many days ("4 Weeks" = 28), not a calendar month. */
  durationDays?: number;
  /** Percent. */
  discount: number;
  description: string;
  features: string[];
  /** Features shown crossed out on the card. */
  excludedFeatures: string[];
  featured: boolean;
};

/** Every tier card lists these; some tiers cross a few out. */
export const TIER_FEATURES = [
  'Personalised diet plan',
  'Chat support with your dietitian',
  'Follow-up consultations',
  'Weekly weight tracking',
  'Video Call Support',
  'Recipe Guide',
  'Festive/Eating Out Guide',
] as const;

const tierExclusions: Record<'tier-kickstart' | 'tier-commitment' | 'tier-lifestyle', string[]> = {
  'tier-kickstart': ['Video Call Support', 'Recipe Guide', 'Festive/Eating Out Guide'],
  'tier-commitment': ['Festive/Eating Out Guide'],
  'tier-lifestyle': [],
};

type TierSpec = { id: keyof typeof tierExclusions; duration: string; months: number; list: number; sell: number; discount: number };

function tiers(type: PlanType, label: string, specs: TierSpec[]): Plan[] {
  return specs.map((t) => ({
    id: t.id,
    type,
    name: `${label} ${t.duration}`,
    href: '/consult?book=true',
    price: `₹${groupRupees(t.list)}`,
    listPrice: t.list,
    sellPrice: t.sell,
    duration: t.duration,
    durationMonths: t.months,
    discount: t.discount,
    description:
      t.months === 1
        ? 'A focused first month to build habits that last.'
        : t.months === 6
          ? 'Six months of steady guidance: the plan most clients choose.'
          : 'A full year of coaching, with health webinars included.',
    features: TIER_FEATURES.filter((f) => !tierExclusions[t.id].includes(f)),
    excludedFeatures: tierExclusions[t.id],
    featured: t.months === 6,
  }));
}

const WL = tiers('WL', 'Weight Loss', [
  { id: 'tier-kickstart', duration: '1 Month', months: 1, list: 2171, sell: 1849, discount: 15 },
  { id: 'tier-commitment', duration: '6 Months', months: 6, list: 11999, sell: 9599, discount: 20 },
  { id: 'tier-lifestyle', duration: '1 Year', months: 12, list: 21999, sell: 16499, discount: 25 },
]);

const WG = tiers('WG', 'Weight Gain', [
  { id: 'tier-kickstart', duration: '1 Month', months: 1, list: 1999, sell: 1699, discount: 15 },
  { id: 'tier-commitment', duration: '6 Months', months: 6, list: 9999, sell: 7999, discount: 20 },
  { id: 'tier-lifestyle', duration: '1 Year', months: 12, list: 16999, sell: 12749, discount: 25 },
]);

type ConditionSpec = { id: PlanId; name: string; list: number; sell: number; type: PlanType; description: string };

/** 4-week condition plans at 5% discount. */
const CONDITIONS: ConditionSpec[] = [
  { id: 'tier-pcod', type: 'DP', name: 'PCOD/PCOS', list: 2237, sell: 2125, description: 'Balances hormones and cycles through food.' },
  { id: 'tier-thyroid', type: 'DP', name: 'Thyroid', list: 2237, sell: 2125, description: 'Supports thyroid health and steady energy.' },
  {
    id: 'tier-diabetes',
    type: 'DP',
    name: 'Diabetes',
    list: 2368,
    sell: 2250,
    description: 'Keeps blood sugar steady without giving up the foods you love.',
  },
  {
    id: 'tier-hypertension',
    type: 'DP',
    name: 'Hypertension',
    list: 2158,
    sell: 2050,
    description: 'Lowers blood pressure with smart salt and potassium choices.',
  },
  {
    id: 'tier-kidney',
    type: 'DP',
    name: 'Kidney',
    list: 2684,
    sell: 2550,
    description: 'Kidney-friendly meals with the right protein and minerals.',
  },
  { id: 'tier-liver', type: 'DP', name: 'Liver', list: 2684, sell: 2550, description: 'Helps a fatty or strained liver recover.' },
  {
    id: 'tier-cholesterol',
    type: 'DP',
    name: 'Cholesterol',
    list: 2684,
    sell: 2550,
    description: 'Heart-healthy fats and fibre to improve your lipid profile.',
  },
  {
    id: 'tier-digestion',
    type: 'LP',
    name: 'Acidity/Constipation/Gastric',
    list: 1578,
    sell: 1499,
    description: 'Calms acidity, bloating and irregularity.',
  },
  { id: 'tier-skin-care', type: 'LP', name: 'Skin Care/Acne', list: 842, sell: 800, description: 'Clearer skin from the inside out.' },
  {
    id: 'tier-marriage',
    type: 'LP',
    name: 'Marriage/Bride',
    list: 3158,
    sell: 3000,
    description: 'Look and feel your best for the big day.',
  },
  {
    id: 'tier-lactating',
    type: 'LP',
    name: 'Lactating',
    list: 1895,
    sell: 1800,
    description: 'Nourishment for new mothers and their babies.',
  },
  {
    id: 'tier-post-pregnancy',
    type: 'LP',
    name: 'Post Pregnancy',
    list: 2632,
    sell: 2500,
    description: 'Gentle, sustainable recovery after childbirth.',
  },
  {
    id: 'tier-basic-guidance',
    type: 'LP',
    name: 'Basic Food Guidance',
    list: 1684,
    sell: 1600,
    description: 'Everyday eating, done right.',
  },
];

const conditionPlans: Plan[] = CONDITIONS.map((c) => ({
  id: c.id,
  type: c.type,
  name: `${c.name} Plan`,
  href: '/consult?book=true',
  price: `₹${groupRupees(c.list)}`,
  listPrice: c.list,
  sellPrice: c.sell,
  duration: '4 Weeks',
  durationMonths: 1,
  durationDays: 28,
  discount: 5,
  description: c.description,
  features: ['Personalised diet plan', 'Chat support with your dietitian', 'Follow-up consultations', 'Weekly weight tracking'],
  excludedFeatures: [],
  featured: false,
}));

/** Every plan, keyed by type and id together (WL and WG share tier ids). */
export const PLANS: readonly Plan[] = [...WL, ...WG, ...conditionPlans];

export function findPlan(type: PlanType, id: string): Plan | undefined {
  return PLANS.find((p) => p.type === type && p.id === id);
}

export function plansOfType(type: PlanType): Plan[] {
  return PLANS.filter((p) => p.type === type);
}

/** "Hi! I'm interested in the {plan name} plan. Could you please share the pricing details?" */
export const unlockPriceMessage = (planName: string) =>
  `Hi! I'm interested in the ${planName} plan. Could you please share the pricing details?`;

/**
 * Household measures: how an Indian kitchen serves food (1½ katori dal, 2 roti), each worth a
 * number of grams for a given food. One list for the plan builder, the journal, the PDF and the
 * API. Browser-safe: the client imports this file.
 *
 * A food's portions are rows of its own (`food_portions`), seeded from its group's defaults below
 * and edited per food: a katori of cooked dal is not a katori of raw rice. `g` and `ml` are always
 * available (ml counts as grams: the foods measured by volume are watery; a food whose density
 * matters gets its own `glass` or `cup` row).
 */
export const MEASURES = {
  katori: { one: 'katori', many: 'katoris' },
  bowl: { one: 'bowl', many: 'bowls' },
  cup: { one: 'cup', many: 'cups' },
  glass: { one: 'glass', many: 'glasses' },
  plate: { one: 'plate', many: 'plates' },
  ladle: { one: 'ladle', many: 'ladles' },
  tbsp: { one: 'tbsp', many: 'tbsp' },
  tsp: { one: 'tsp', many: 'tsp' },
  piece: { one: 'piece', many: 'pieces' },
  roti: { one: 'roti', many: 'rotis' },
  slice: { one: 'slice', many: 'slices' },
  handful: { one: 'handful', many: 'handfuls' },
  g: { one: 'g', many: 'g' },
  ml: { one: 'ml', many: 'ml' },
} as const;
export type Measure = keyof typeof MEASURES;
export const MEASURE_KEYS = Object.keys(MEASURES) as [Measure, ...Measure[]];
/** The measures that are a serving (everything but the metric ones). */
export type HouseholdMeasure = Exclude<Measure, 'g' | 'ml'>;

/** A portion of one food: `grams` edible weight for one `unit`. */
export type Portion = { unit: HouseholdMeasure; grams: number };

const FRACTIONS: Record<string, number> = { '¼': 0.25, '½': 0.5, '¾': 0.75, '⅓': 1 / 3, '⅔': 2 / 3 };
const FRACTION_TEXT: [number, string][] = [
  [0.25, '¼'],
  [0.5, '½'],
  [0.75, '¾'],
];

/** Every word a person may type for a measure (singular, plural, common spellings). */
const WORDS: Record<string, Measure> = (() => {
  const words: Record<string, Measure> = {};
  for (const key of MEASURE_KEYS) {
    words[key] = key;
    words[MEASURES[key].one] = key;
    words[MEASURES[key].many] = key;
  }
  Object.assign(words, {
    katoria: 'katori',
    vati: 'katori',
    bowls: 'bowl',
    chapati: 'roti',
    chapatis: 'roti',
    phulka: 'roti',
    tablespoon: 'tbsp',
    tablespoons: 'tbsp',
    teaspoon: 'tsp',
    teaspoons: 'tsp',
    pc: 'piece',
    pcs: 'piece',
    gram: 'g',
    grams: 'g',
    gm: 'g',
    gms: 'g',
    millilitre: 'ml',
    millilitres: 'ml',
  });
  return words;
})();

/**
 * "1½ katori", "1 1/2 katoris", "1.5 katori", "150 g", "150g", "2 roti", "½ cup" → quantity and
 * measure; null when the text is not a quantity this list knows.
 */
export function parseQuantity(text: string): { quantity: number; unit: Measure } | null {
  const m = /^\s*(\d+(?:[.,]\d+)?)?\s*(?:(\d+)\s*\/\s*(\d+)|([¼½¾⅓⅔]))?\s*([\p{L}]+)\.?\s*$/u.exec(text.toLowerCase());
  if (!m) return null;
  const [, whole, num, den, glyph, word] = m;
  if (whole === undefined && num === undefined && glyph === undefined) return null;
  let quantity = whole !== undefined ? Number(whole.replace(',', '.')) : 0;
  if (num !== undefined && den !== undefined) {
    if (Number(den) === 0) return null;
    // "1/2" alone is a half; "1 1/2" is one and a half.
    quantity += Number(num) / Number(den);
  }
  if (glyph !== undefined) quantity += FRACTIONS[glyph] ?? 0;
  const unit = word === undefined ? undefined : WORDS[word];
  if (!unit || !(quantity > 0) || !Number.isFinite(quantity)) return null;
  return { quantity, unit };
}

/** 1.5 → "1½", 0.25 → "¼", 2 → "2", 0.4 → "0.4". */
export function quantityNumberText(quantity: number): string {
  const whole = Math.floor(quantity + 1e-9);
  const rest = quantity - whole;
  if (rest < 1e-9) return String(whole);
  const glyph = FRACTION_TEXT.find(([value]) => Math.abs(value - rest) < 1e-9)?.[1];
  if (glyph) return `${whole > 0 ? whole : ''}${glyph}`;
  return String(Math.round(quantity * 100) / 100);
}

/** "1½ katoris", "1 roti", "150 g". */
export function quantityText(quantity: number, unit: Measure): string {
  const words = MEASURES[unit];
  return `${quantityNumberText(quantity)} ${quantity > 1 ? words.many : words.one}`;
}

/** The grams a quantity weighs for a food with these portions; null when the food has no such measure. */
export function gramsOf(quantity: number, unit: Measure, portions: readonly Portion[]): number | null {
  if (unit === 'g' || unit === 'ml') return quantity;
  const portion = portions.find((p) => p.unit === unit);
  return portion ? quantity * portion.grams : null;
}

/** The quantity of a measure that weighs `grams` (the way back; gramsOf(quantityOf(g)) === g). */
export function quantityOf(grams: number, unit: Measure, portions: readonly Portion[]): number | null {
  if (unit === 'g' || unit === 'ml') return grams;
  const portion = portions.find((p) => p.unit === unit);
  return portion && portion.grams > 0 ? grams / portion.grams : null;
}

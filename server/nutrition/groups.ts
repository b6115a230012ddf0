import type { Portion } from './measures.js';

/**
 * Food groups: IFCT 2017's twenty (its code letter in `ifct`), plus cooked dishes and drinks for
 * recipes and a clinic's own lists. Each group has the household portions a new food of the group
 * starts with (grams of the food as it is listed: raw for IFCT's foods, cooked for dishes). They are
 * starting points a dietitian edits per food, not data: a food's own rows in `food_portions` win.
 * Browser-safe.
 */
export const FOOD_GROUPS = {
  cereals: { label: 'Cereals and millets', ifct: 'A', portions: { katori: 100, cup: 120, tbsp: 10, handful: 30, roti: 30 } },
  pulses: { label: 'Grain legumes (dals)', ifct: 'B', portions: { katori: 100, cup: 120, tbsp: 12, handful: 30 } },
  'leafy-vegetables': { label: 'Green leafy vegetables', ifct: 'C', portions: { katori: 50, cup: 40, handful: 25 } },
  'other-vegetables': { label: 'Other vegetables', ifct: 'D', portions: { katori: 100, cup: 100, piece: 80, handful: 50 } },
  fruits: { label: 'Fruits', ifct: 'E', portions: { piece: 100, katori: 120, cup: 150, slice: 30 } },
  'roots-tubers': { label: 'Roots and tubers', ifct: 'F', portions: { piece: 100, katori: 120 } },
  'condiments-spices': { label: 'Condiments and spices', ifct: 'G', portions: { tsp: 3, tbsp: 8 } },
  'nuts-oilseeds': { label: 'Nuts and oil seeds', ifct: 'H', portions: { handful: 25, tbsp: 10, piece: 2 } },
  sugars: { label: 'Sugars', ifct: 'I', portions: { tsp: 5, tbsp: 15 } },
  mushrooms: { label: 'Mushrooms', ifct: 'J', portions: { katori: 80, handful: 30 } },
  miscellaneous: { label: 'Miscellaneous foods', ifct: 'K', portions: { tsp: 5, tbsp: 15 } },
  milk: { label: 'Milk and milk products', ifct: 'L', portions: { glass: 250, cup: 150, katori: 150, tbsp: 15, slice: 20, piece: 20 } },
  egg: { label: 'Egg and egg products', ifct: 'M', portions: { piece: 50 } },
  poultry: { label: 'Poultry', ifct: 'N', portions: { piece: 40, katori: 100 } },
  meat: { label: 'Animal meat', ifct: 'O', portions: { piece: 40, katori: 100 } },
  'marine-fish': { label: 'Marine fish', ifct: 'P', portions: { piece: 60, katori: 100 } },
  'marine-shellfish': { label: 'Marine shellfish', ifct: 'Q', portions: { piece: 15, katori: 100 } },
  'marine-molluscs': { label: 'Marine molluscs', ifct: 'R', portions: { piece: 15, katori: 100 } },
  'freshwater-fish': { label: 'Fresh water fish and shellfish', ifct: 'S', portions: { piece: 60, katori: 100 } },
  'oils-fats': { label: 'Edible oils and fats', ifct: 'T', portions: { tsp: 5, tbsp: 14 } },
  dishes: { label: 'Cooked dishes', ifct: null, portions: { katori: 150, bowl: 250, plate: 250, ladle: 60, piece: 40, tbsp: 15 } },
  beverages: { label: 'Drinks', ifct: null, portions: { glass: 250, cup: 150 } },
} as const satisfies Record<string, { label: string; ifct: string | null; portions: Partial<Record<Portion['unit'], number>> }>;

export type FoodGroup = keyof typeof FOOD_GROUPS;
export const FOOD_GROUP_KEYS = Object.keys(FOOD_GROUPS) as [FoodGroup, ...FoodGroup[]];

/** The portions a new food of a group starts with. */
export function defaultPortions(group: FoodGroup): Portion[] {
  return Object.entries(FOOD_GROUPS[group].portions).map(([unit, grams]) => ({ unit: unit as Portion['unit'], grams }));
}

import type { Db } from '../db/index.js';
import type { Nutrients } from '../nutrition/nutrients.js';
import type { SuggestionInput } from '../nutrition/targets-schema.js';
import { suggestTargets } from '../nutrition/targets-suggest.js';
import { upsertTargets } from '../nutrition/targets-repo.js';

/**
 * The demo clients' daily targets, as their dietitian set them: the suggestion for each person
 * (targets-suggest.ts), then her own changes, written down here so a newcomer sees both.
 * - Asha (34, 162 cm, ~72 kg, desk job with evening walks, vegetarian, losing weight): lightly
 *   active; protein 1 g/kg to keep muscle while she loses fat; 350 kcal below the suggestion for a
 *   steady loss; iron, calcium and B12 followed (vegetarian, hypothyroid).
 * - Rohan (27, 178 cm, ~65 kg, gym five evenings a week, gaining weight): very active; protein
 *   1.6 g/kg; 300 kcal above the suggestion for a lean gain; iron and calcium followed.
 * Both see their numbers.
 */
type DemoTargets = { person: SuggestionInput; energyChange: number; micronutrients: (keyof Nutrients)[] };

export const DEMO_TARGETS = {
  asha: {
    person: { ageYears: 34, sex: 'female', weightKg: 71.6, heightCm: 162, activity: 'light', proteinGPerKg: 1, fatPercent: 25 },
    energyChange: -350,
    micronutrients: ['ironMg', 'calciumMg', 'vitaminB12Ug'],
  },
  rohan: {
    person: { ageYears: 27, sex: 'male', weightKg: 65.1, heightCm: 178, activity: 'active', proteinGPerKg: 1.6, fatPercent: 25 },
    energyChange: 300,
    micronutrients: ['ironMg', 'calciumMg'],
  },
} as const satisfies Record<string, DemoTargets>;

/** The targets a demo client gets: the suggestion with the dietitian's energy change, the macros following it. */
export const demoTargets = (demo: DemoTargets): Nutrients =>
  suggestTargets(demo.person, { micronutrients: demo.micronutrients, energyChangeKcal: demo.energyChange }).targets;

export async function seedDemoTargets(db: Db, opts: { clients: Record<keyof typeof DEMO_TARGETS, number>; setBy: number; now: Date }) {
  for (const [who, demo] of Object.entries(DEMO_TARGETS) as [keyof typeof DEMO_TARGETS, DemoTargets][]) {
    await upsertTargets(db, {
      clientId: opts.clients[who],
      targets: demoTargets(demo) as Record<string, number>,
      basis: { suggestion: demo.person, percentOfEnergy: null },
      showNumbers: true,
      setBy: opts.setBy,
      at: opts.now,
    });
  }
}

import type { Db } from '../db/index.js';
import { type IfctReport, importIfct } from '../nutrition/import/ifct.js';

/**
 * The demo's food library: IFCT 2017's foods with their Hindi names and household portions, so
 * plans and meals can add up on a fresh `npm start`. Only the demo and the tests load IFCT on their
 * own; a clinic's database gets it when an operator runs `npm run foods:import -- ifct2017`, under
 * NIN's terms (README). Rejected foods are simply not part of the demo.
 */
export async function seedDemoFoods(db: Db, opts: { now?: Date } = {}): Promise<IfctReport> {
  return importIfct(db, { now: opts.now });
}

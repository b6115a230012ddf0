import { randomUUID } from 'node:crypto';
import * as repo from '../care-record/repo.js';
import { goalsForm, intakeAnswers, measurementForm, missingIntakeAnswers } from '../care-record/schema.js';
import type { Db } from '../db/index.js';
import { addDays, serviceInstant } from '../time.js';

/**
 * Each demo client's care record: the intake questionnaire they finished
 * before their plan began, the goals set together at the start, and their
 * body measurements then and now. Every answer and number is checked by the
 * schema of the form that takes it.
 */

const INTAKE = {
  asha: {
    conditions: ['thyroid'],
    medicines: 'Thyroxine 50 mcg every morning, empty stomach',
    allergies: 'None known',
    dietPattern: 'vegetarian',
    cuisine: 'North Indian at home, South Indian breakfasts',
    typicalDay:
      'Tea and biscuits at 7, poha or paratha at 9, office lunch from home at 1:30 (2 rotis, sabzi, dal, rice), tea and namkeen at 5, dinner at 9:30 with the family.',
    activityLevel: 'light',
    sleepHours: 6.5,
    goalsInWords: 'Lose 10 kg before my sister’s wedding next year, without crash diets. Have more energy in the afternoons.',
    womensHealth: 'Regular cycles.',
  },
  rohan: {
    conditions: [],
    medicines: 'Whey protein, one scoop after training',
    allergies: null,
    dietPattern: 'non-vegetarian',
    cuisine: 'Punjabi home food; eats out twice a week',
    typicalDay:
      'Black coffee at 7, bread omelette at 8:30, canteen thali at 1, shake at 5 before the gym, dinner at 9:30 (rotis, dal, chicken twice a week).',
    activityLevel: 'active',
    sleepHours: 7,
    goalsInWords: 'Gain 4 kg, mostly muscle, in three months. Stop feeling tired at the gym.',
  },
};

const GOALS = {
  asha: { targetWeightKg: 68, waistCm: 80, waterGlasses: 10, steps: 8000, habit: 'Dinner finished by 8:30 pm' },
  rohan: { targetWeightKg: 68, waistCm: null, waterGlasses: 12, steps: 10000, habit: 'Protein in every meal' },
};

const MEASUREMENTS = {
  asha: [
    { weeksAgo: 7, waistCm: 88, hipCm: 104, chestCm: 96, armCm: 30.5, thighCm: 58 },
    { weeksAgo: 0, waistCm: 84.5, hipCm: 101, chestCm: 94, armCm: 29.5, thighCm: 56 },
  ],
  rohan: [
    { weeksAgo: 2, waistCm: 76, hipCm: null, chestCm: 91, armCm: 29, thighCm: 50 },
    { weeksAgo: 0, waistCm: 76.5, hipCm: null, chestCm: 93, armCm: 30.5, thighCm: 51 },
  ],
};

export async function seedCareRecord(
  trx: Db,
  opts: {
    client: { id: number; kind: 'asha' | 'rohan' };
    dietitianId: number;
    /** The day the client's plan began: the intake was finished before it, the goals set on it. */
    startDate: string;
    /** How many days after the plan began the target weight is due. */
    targetInDays: number;
    today: string;
    now: Date;
  },
) {
  const { client } = opts;
  const answers = intakeAnswers.parse(INTAKE[client.kind]);
  const missing = Object.keys(missingIntakeAnswers(answers));
  if (missing.length > 0) throw new Error(`The demo intake misses ${missing.join(', ')}`);
  await repo.saveIntake(trx, {
    client_id: client.id,
    answers: JSON.stringify(answers),
    complete: true,
    updated_by: client.id,
    at: serviceInstant(addDays(opts.startDate, -3), 21 * 60 + 10),
  });

  const goals = goalsForm.parse({ ...GOALS[client.kind], targetDate: addDays(opts.startDate, opts.targetInDays) });
  await repo.insertGoals(trx, {
    client_id: client.id,
    target_weight_kg: goals.targetWeightKg,
    target_date: goals.targetDate,
    waist_cm: goals.waistCm,
    water_glasses: goals.waterGlasses,
    steps: goals.steps,
    habit: goals.habit,
    set_by: opts.dietitianId,
    client_request_id: randomUUID(),
    created_at: serviceInstant(opts.startDate, 11 * 60),
  });

  for (const m of MEASUREMENTS[client.kind]) {
    const date = addDays(opts.today, -7 * m.weeksAgo);
    const parsed = measurementForm.parse({ ...m, date });
    await repo.insertMeasurement(trx, {
      client_id: client.id,
      date: parsed.date,
      waist_cm: parsed.waistCm,
      hip_cm: parsed.hipCm,
      chest_cm: parsed.chestCm,
      arm_cm: parsed.armCm,
      thigh_cm: parsed.thighCm,
      recorded_by: client.id,
      client_request_id: randomUUID(),
      created_at: m.weeksAgo === 0 ? opts.now : serviceInstant(date, 8 * 60),
    });
  }
}

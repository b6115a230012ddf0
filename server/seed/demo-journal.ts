import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.js';
import * as repo from '../journal/repo.js';
import { replaceItems } from '../nutrition/days-repo.js';
import { foodIdsBySourceRef } from '../nutrition/recipes-repo.js';
import { type MealKind, type MealMark, mealDescription } from '../journal/schema.js';
import type { FileStorage } from '../storage/storage.js';
import { cameraName, storeDemoPhoto } from './demo-files.js';
import type { DemoDish, DemoPhoto } from './demo-photos.js';
import { addDays, serviceInstant, serviceMinute } from '../time.js';

/**
 * A week of each demo client's meal journal, as they would log it:
 * what they ate in their words, hunger and fullness, photos of some meals,
 * the day's water, and the dietitian's marks and comments on a few entries.
 * The days are the seven India-time days before today, whole, and today's
 * meals up to now.
 */

type Meal = {
  meal: MealKind;
  at: string;
  text: string;
  /** The foods logged with it: IFCT 2017 codes and raw grams (the demo loads IFCT); none for a text-only meal. */
  foods?: [code: string, grams: number][];
  photo?: DemoDish;
  note?: string;
  mark?: MealMark;
  /** The dietitian's comment, and the client's answer to it. */
  comment?: string;
  reply?: string;
};

/** Days logged before today: a full week, so the week strip and the dietitian's adherence view have something to show. */
export const JOURNAL_DAYS = 7;

const ashaDay = (d: number): Meal[] => {
  const breakfasts: Meal[] = [
    {
      meal: 'breakfast',
      at: '08:30',
      text: 'Vegetable poha with peas and a few peanuts, tea without sugar',
      photo: 'poha',
      foods: [
        ['A011', 50],
        ['H012', 10],
        ['L002', 100],
      ],
    },
    {
      meal: 'breakfast',
      at: '08:40',
      text: '2 moong dal chillas with mint chutney',
      photo: 'chilla',
      mark: 'looks-good',
      foods: [['B010', 70]],
    },
    {
      meal: 'breakfast',
      at: '08:15',
      text: '3 idlis with sambar and a spoon of coconut chutney',
      photo: 'idli',
      foods: [
        ['A015', 60],
        ['B003', 25],
        ['B021', 20],
      ],
    },
    { meal: 'breakfast', at: '09:00', text: 'Vegetable upma and a katori of curd', foods: [['A022', 50]] },
  ];
  const lunches: Meal[] = [
    {
      meal: 'lunch',
      at: '13:15',
      text: '2 phulkas, dal, bhindi sabzi, a little rice, cucumber salad',
      photo: 'thali',
      foods: [
        ['A019', 60],
        ['B021', 30],
        ['A015', 30],
      ],
    },
    {
      meal: 'lunch',
      at: '13:30',
      text: 'Rajma with brown rice and kachumber salad',
      foods: [
        ['B020', 50],
        ['A013', 60],
      ],
    },
    { meal: 'lunch', at: '13:10', text: '1 jowar roti, lauki chana dal, curd', foods: [['A005', 40]] },
  ];
  const dinners: Meal[] = [
    {
      meal: 'dinner',
      at: '20:00',
      text: 'Moong dal khichdi with a katori of curd',
      photo: 'khichdi',
      foods: [
        ['B010', 30],
        ['A015', 40],
      ],
    },
    {
      meal: 'dinner',
      at: '20:15',
      text: 'Paneer bhurji (100 g) with 1 roti and sauteed beans',
      foods: [
        ['L003', 100],
        ['A019', 30],
      ],
    },
    { meal: 'dinner', at: '20:30', text: 'Vegetable daliya and a bowl of tomato soup' },
  ];
  const day: Meal[] = [
    { meal: 'early-morning', at: '06:45', text: 'Warm jeera water and 5 soaked almonds', foods: [['H001', 6]] },
    breakfasts[d % breakfasts.length]!,
    d % 2 === 0
      ? {
          meal: 'mid-morning',
          at: '11:00',
          text: 'Papaya, apple and pomegranate',
          photo: 'fruit',
          foods: [
            ['E049', 100],
            ['E001', 80],
            ['E055', 50],
          ],
        }
      : { meal: 'mid-morning', at: '11:15', text: 'Buttermilk with roasted jeera' },
    lunches[d % lunches.length]!,
    {
      meal: 'evening-snack',
      at: '17:00',
      text: 'Tea without sugar and a bowl of roasted makhana',
      photo: d % 3 === 0 ? 'chai' : undefined,
    },
    dinners[d % dinners.length]!,
  ];
  return day;
};

/** Entries with the dietitian's attention, by days before today and meal. */
const ASHA_NOTES: Record<string, Partial<Meal>> = {
  '2:lunch': {
    mark: 'looks-good',
    comment: 'Good balance on this plate: dal, sabzi and salad with the phulkas. Keep the rice to this small portion.',
  },
  '3:evening-snack': {
    text: '2 samosas and tea at a colleague’s farewell',
    note: 'Could not say no. Skipped dinner to make up.',
    mark: 'lets-talk',
    comment:
      'No guilt over a farewell samosa! But please do not skip dinner after it: have a light khichdi instead, or you will be starving tomorrow morning.',
    reply: 'Okay, understood. Next time I will have one and eat a light dinner.',
  },
  '5:breakfast': { comment: 'Nice protein-rich start. Add a glass of toned milk or curd on days you train.' },
  '1:dinner': { mark: 'looks-good' },
};

const rohanDay = (d: number): Meal[] => {
  const breakfasts: Meal[] = [
    {
      meal: 'breakfast',
      at: '08:00',
      text: '4-egg bhurji with 2 multigrain toasts and a glass of milk',
      photo: 'bhurji',
      foods: [
        ['M001', 200],
        ['L002', 250],
      ],
    },
    { meal: 'breakfast', at: '08:10', text: 'Oats with banana, peanut butter and milk' },
    {
      meal: 'breakfast',
      at: '08:05',
      text: '2 aloo parathas with curd and a boiled egg',
      foods: [
        ['A019', 80],
        ['M004', 50],
      ],
    },
  ];
  const lunches: Meal[] = [
    {
      meal: 'lunch',
      at: '13:30',
      text: 'Chicken curry, 3 rotis, rice and salad',
      photo: 'thali',
      foods: [
        ['N003', 150],
        ['A019', 90],
        ['A015', 50],
      ],
    },
    {
      meal: 'lunch',
      at: '13:40',
      text: 'Rajma chawal with curd and a boiled egg',
      foods: [
        ['B020', 60],
        ['A015', 80],
        ['M004', 50],
      ],
    },
    { meal: 'lunch', at: '13:20', text: 'Fish curry with rice and cabbage sabzi' },
  ];
  return [
    breakfasts[d % breakfasts.length]!,
    {
      meal: 'mid-morning',
      at: '11:00',
      text: 'Banana and a handful of peanuts',
      foods: [
        ['E012', 100],
        ['H012', 30],
      ],
    },
    lunches[d % lunches.length]!,
    { meal: 'evening-snack', at: '17:00', text: 'Post-workout: whey shake with water and a banana' },
    d % 2 === 0
      ? {
          meal: 'dinner',
          at: '21:00',
          text: 'Paneer tikka with 2 rotis and dal',
          foods: [
            ['L003', 150],
            ['A019', 60],
            ['B021', 30],
          ],
        }
      : {
          meal: 'dinner',
          at: '21:15',
          text: 'Dal khichdi with ghee and curd',
          photo: 'khichdi',
          foods: [
            ['B010', 40],
            ['A015', 60],
          ],
        },
  ];
};

const ROHAN_NOTES: Record<string, Partial<Meal>> = {
  '1:breakfast': {
    mark: 'looks-good',
    comment: 'About 30 g of protein before 9 am: exactly what we want on training days.',
  },
  '4:evening-snack': { comment: 'Good that you switched to water in the shake. Any bloating since?', reply: 'None at all this week!' },
};

/** Hunger before (1–10) and fullness after, varied the same way on every run. */
const scales = (d: number, i: number) => ({ hunger: 4 + ((d * 3 + i * 5) % 5), fullness: 5 + ((d * 7 + i * 3) % 4) });

const WATER = [8, 7, 9, 6, 8, 10, 7, 9];

export async function seedJournal(
  trx: Db,
  storage: FileStorage,
  opts: {
    client: { id: number; kind: 'asha' | 'rohan' };
    dietitianId: number;
    photos: Map<DemoDish, DemoPhoto>;
    today: string;
    now: Date;
  },
) {
  const { client, now } = opts;
  const menu = client.kind === 'asha' ? ashaDay : rohanDay;
  const attention = client.kind === 'asha' ? ASHA_NOTES : ROHAN_NOTES;
  // The demo loads IFCT 2017 first; a food it rejected is left out of the meal, never invented.
  const codes = new Set<string>();
  for (let d = 0; d <= JOURNAL_DAYS; d++) for (const m of menu(d)) for (const [code] of m.foods ?? []) codes.add(code);
  const foodIds = await foodIdsBySourceRef(trx, 'ifct2017', [...codes]);
  for (let daysAgo = JOURNAL_DAYS; daysAgo >= 0; daysAgo--) {
    const day = addDays(opts.today, -daysAgo);
    for (const [i, planned] of menu(daysAgo).entries()) {
      const meal = { ...planned, ...attention[`${daysAgo}:${planned.meal}`] };
      const [h, m] = meal.at.split(':').map(Number) as [number, number];
      const eatenAt = serviceInstant(day, h * 60 + m);
      if (eatenAt.getTime() > now.getTime()) continue;
      const { hunger, fullness } = scales(daysAgo, i);
      const entry = await repo.insertEntry(trx, {
        client_id: client.id,
        created_by: client.id,
        client_entry_id: randomUUID(),
        meal: meal.meal,
        eaten_at: eatenAt,
        eaten_on: day,
        description: mealDescription.parse(meal.text),
        hunger_before: hunger,
        fullness_after: fullness,
        note: meal.note ?? null,
      });
      if (!entry) throw new Error('A demo journal entry was not stored');
      const foods = (meal.foods ?? []).flatMap(([code, grams]) => {
        const id = foodIds.get(code);
        return id === undefined ? [] : [{ food_id: id, quantity: grams, unit: 'g', grams }];
      });
      if (foods.length) await replaceItems(trx, entry.id, foods, client.id, eatenAt);
      const later = (minutes: number) => new Date(Math.min(eatenAt.getTime() + minutes * 60_000, now.getTime()));
      if (meal.photo) {
        const id = await storeDemoPhoto(trx, storage, opts.photos.get(meal.photo)!, {
          uploaderId: client.id,
          clientId: client.id,
          use: 'meal',
          at: later(2),
          name: cameraName(eatenAt),
        });
        await repo.insertPhotos(trx, entry.id, [id]);
      }
      if (meal.mark) await repo.setMark(trx, entry.id, meal.mark, opts.dietitianId, later(150));
      if (meal.comment) {
        await repo.insertComment(trx, {
          entry_id: entry.id,
          client_comment_id: randomUUID(),
          author_id: opts.dietitianId,
          author_role: 'dietitian',
          text: meal.comment,
          created_at: later(150),
        });
        if (meal.reply)
          await repo.insertComment(trx, {
            entry_id: entry.id,
            client_comment_id: randomUUID(),
            author_id: client.id,
            author_role: 'client',
            text: meal.reply,
            created_at: later(200),
          });
      }
    }
    // Water counted through the day: today's glasses so far (about one every two hours from 7 am).
    const hour = Math.floor(serviceMinute(now) / 60);
    const glasses = daysAgo === 0 ? Math.min(WATER[0]!, Math.max(0, Math.floor((hour - 7) / 2))) : WATER[daysAgo % WATER.length]!;
    if (glasses > 0) await repo.setWater(trx, client.id, day, glasses, daysAgo === 0 ? now : serviceInstant(day, 21 * 60));
  }
}

import type { Db } from '../db/index.js';
import type { ComposedDietPlanInput, Measure, Meal } from '../diet-plan/schema.js';
import { foodIdsBySourceRef } from '../nutrition/recipes-repo.js';
import { demoRecipeRef } from './demo-recipes.js';
import { addDays } from '../time.js';

/**
 * Realistic Indian diet plans for the demo clients: a vegetarian weight-loss
 * plan in three four-week phases, and a weight-gain plan for a gym-goer.
 * Each week rotates a menu of meals so no two days read the same.
 */

type Item = Meal['items'][number];
const food = (name: string, quantity: number, unit: Measure, metric: { g?: number; ml?: number }): Item => ({
  food: name,
  portion: { quantity, unit, grams: metric.g, ml: metric.ml },
});
const meal = (time: string, name: string, items: Item[], notes?: string): Meal => ({ time, name, items, notes });

const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Day d takes option (d + shift) of each slot, so phases differ by their shift. */
function rotate(slots: { time: string; name: string; options: { items: Item[]; notes?: string }[] }[], shift: number) {
  return WEEK.map((label, d) => ({
    label,
    meals: slots.map((slot) => {
      const option = slot.options[(d + shift) % slot.options.length]!;
      return meal(slot.time, slot.name, option.items, option.notes);
    }),
  }));
}

/* ------------------------------ Asha: weight loss, vegetarian ------------------------------ */

const ashaSlots = (rotiPerLunch: number) => [
  {
    time: '06:30',
    name: 'Early morning',
    options: [
      { items: [food('Warm jeera water', 1, 'glass', { ml: 250 }), food('Soaked almonds', 5, 'piece', { g: 6 })] },
      { items: [food('Methi seed water', 1, 'glass', { ml: 250 }), food('Walnut halves', 2, 'piece', { g: 8 })] },
      { items: [food('Warm water with lemon', 1, 'glass', { ml: 250 }), food('Soaked almonds', 5, 'piece', { g: 6 })] },
    ],
  },
  {
    time: '08:30',
    name: 'Breakfast',
    options: [
      {
        items: [food('Vegetable poha with peas', 1, 'katori', { g: 150 }), food('Tea with toned milk, no sugar', 1, 'cup', { ml: 150 })],
        notes: 'Add 1 tsp roasted peanuts for protein; skip the sev.',
      },
      {
        items: [food('Moong dal chilla', 2, 'piece', { g: 120 }), food('Mint-coriander chutney', 2, 'tbsp', { g: 30 })],
        notes: 'Non-stick tawa with ½ tsp oil for both chillas.',
      },
      {
        items: [
          food('Idli', 3, 'piece', { g: 120 }),
          food('Sambar', 1, 'katori', { g: 150 }),
          food('Coconut chutney', 1, 'tbsp', { g: 15 }),
        ],
      },
      { items: [food('Vegetable upma (suji)', 1, 'katori', { g: 150 }), food('Curd', 1, 'katori', { g: 100 })] },
      {
        items: [food('Besan chilla with onion and tomato', 2, 'piece', { g: 110 }), food('Green chutney', 2, 'tbsp', { g: 30 })],
      },
      { items: [food('Ragi dosa', 2, 'piece', { g: 100 }), food('Sambar', 1, 'katori', { g: 150 })] },
      {
        items: [food('Vegetable dalia', 1, 'katori', { g: 160 }), food('Toned milk', 1, 'glass', { ml: 200 })],
        // The rotation puts each option on a different weekday in each phase: a note names no day.
        notes: 'This week’s treat: 1 besan ladoo allowed instead of the milk.',
      },
    ],
  },
  {
    time: '11:00',
    name: 'Mid-morning',
    options: [
      { items: [food('Papaya', 1, 'bowl', { g: 150 })] },
      { items: [food('Buttermilk (chaas) with roasted jeera', 1, 'glass', { ml: 200 })] },
      { items: [food('Guava', 1, 'piece', { g: 100 })] },
      { items: [food('Coconut water', 1, 'glass', { ml: 200 })] },
      { items: [food('Apple', 1, 'piece', { g: 120 })], notes: 'Eat it with the peel for fibre.' },
    ],
  },
  {
    time: '13:30',
    name: 'Lunch',
    options: [
      {
        items: [
          food('Phulka (whole wheat)', rotiPerLunch, 'roti', { g: Math.round(30 * rotiPerLunch) }),
          food('Moong dal', 1, 'katori', { g: 150 }),
          food('Lauki sabzi', 1, 'katori', { g: 150 }),
          food('Cucumber-tomato salad', 1, 'plate', { g: 100 }),
          food('Curd', 1, 'katori', { g: 100 }),
        ],
        notes: 'Start with the salad. No ghee on the phulka.',
      },
      {
        items: [
          food('Brown rice', 0.75, 'katori', { g: 100 }),
          food('Rajma', 1, 'katori', { g: 150 }),
          food('Kachumber salad', 1, 'plate', { g: 100 }),
        ],
        notes: 'Soak rajma overnight; pressure-cook with 1 tsp oil tadka.',
      },
      {
        items: [
          food('Jowar roti', rotiPerLunch, 'roti', { g: Math.round(35 * rotiPerLunch) }),
          food('Palak dal', 1, 'katori', { g: 150 }),
          food('Bhindi sabzi', 1, 'katori', { g: 120 }),
          food('Carrot-beetroot salad', 1, 'plate', { g: 100 }),
        ],
      },
      {
        items: [
          food('Phulka (whole wheat)', rotiPerLunch, 'roti', { g: Math.round(30 * rotiPerLunch) }),
          food('Chole', 1, 'katori', { g: 150 }),
          food('Onion-cucumber salad', 1, 'plate', { g: 100 }),
          food('Buttermilk (chaas)', 1, 'glass', { ml: 200 }),
        ],
      },
      {
        items: [
          food('Vegetable pulao', 1, 'katori', { g: 150 }),
          food('Cucumber raita', 1, 'katori', { g: 120 }),
          food('Mixed dal', 1, 'katori', { g: 150 }),
        ],
        notes: 'Pulao with more vegetables than rice.',
      },
    ],
  },
  {
    time: '17:00',
    name: 'Evening',
    options: [
      { items: [food('Roasted chana', 1, 'handful', { g: 30 }), food('Green tea', 1, 'cup', { ml: 150 })] },
      { items: [food('Sprouts chaat with lemon', 1, 'katori', { g: 100 })] },
      { items: [food('Roasted makhana', 1, 'katori', { g: 20 }), food('Masala chai, no sugar', 1, 'cup', { ml: 150 })] },
      { items: [food('Steamed dhokla', 2, 'piece', { g: 80 })] },
    ],
  },
  {
    time: '20:00',
    name: 'Dinner',
    options: [
      {
        items: [
          food('Multigrain roti', 1, 'roti', { g: 35 }),
          food('Palak paneer', 1, 'katori', { g: 120 }),
          food('Sautéed vegetables', 1, 'katori', { g: 100 }),
        ],
      },
      {
        items: [food('Moong dal khichdi', 1, 'katori', { g: 200 }), food('Cucumber raita', 1, 'katori', { g: 100 })],
        notes: 'Finish dinner by 8:30 pm; walk 15 minutes after.',
      },
      {
        items: [food('Mixed vegetable soup', 1, 'bowl', { ml: 250 }), food('Paneer tikka (grilled)', 4, 'piece', { g: 100 })],
      },
      {
        items: [
          food('Phulka (whole wheat)', 1, 'roti', { g: 30 }),
          food('Lauki chana dal', 1, 'katori', { g: 150 }),
          food('Tinda sabzi', 1, 'katori', { g: 120 }),
        ],
      },
      { items: [food('Methi thepla', 2, 'piece', { g: 80 }), food('Curd', 1, 'katori', { g: 100 })] },
    ],
  },
  {
    time: '22:00',
    name: 'Bedtime',
    options: [
      { items: [food('Haldi doodh (हल्दी दूध), toned milk', 1, 'glass', { ml: 150 })] },
      { items: [food('Chamomile tea', 1, 'cup', { ml: 150 })] },
    ],
  },
];

const ASHA_GUIDELINES = [
  'Drink 2.5 to 3 litres of water a day; more on hot days.',
  'Use at most 3 tsp of oil in the whole day’s cooking, and 1 tsp of ghee.',
  'Walk 8,000 steps a day; a 15-minute walk after dinner counts.',
  'Weigh yourself every Monday morning before breakfast and record it in the app.',
  'Eating out? Choose tandoori, grilled or steamed dishes and skip the creamy gravies.',
  'Seasonal vegetables keep the week’s groceries near ₹1,200 and taste better.',
];

/** Three consecutive four-week phases; the last one runs through `today`. */
export function ashaDietPlans(today: string): ComposedDietPlanInput[] {
  const phase3From = addDays(today, -20);
  const phases = [
    { title: 'Weight loss, phase 1: settling in', from: addDays(phase3From, -56), shift: 0, roti: 2 },
    { title: 'Weight loss, phase 2: building momentum', from: addDays(phase3From, -28), shift: 2, roti: 2 },
    { title: 'Weight loss, phase 3: steady progress', from: phase3From, shift: 4, roti: 1.5 },
  ];
  return phases.map((p, i) => ({
    title: p.title,
    from: p.from,
    to: addDays(p.from, 27),
    days: rotate(ashaSlots(p.roti), p.shift),
    guidelines:
      i === 2 ? [...ASHA_GUIDELINES, 'Aim for 20 g of protein at each main meal: dal, paneer, curd or sprouts.'] : ASHA_GUIDELINES,
  }));
}

/* ------------------------------ Rohan: weight gain, gym ------------------------------ */

const rohanSlots = [
  {
    time: '06:30',
    name: 'Early morning',
    options: [{ items: [food('Banana', 1, 'piece', { g: 120 }), food('Soaked almonds', 8, 'piece', { g: 10 })] }],
  },
  {
    time: '08:00',
    name: 'Breakfast',
    options: [
      {
        items: [
          food('Egg bhurji (3 eggs)', 1, 'katori', { g: 150 }),
          food('Multigrain toast', 2, 'slice', { g: 60 }),
          food('Full-cream milk', 1, 'glass', { ml: 250 }),
        ],
      },
      { items: [food('Paneer paratha', 2, 'piece', { g: 200 }), food('Curd', 1, 'katori', { g: 150 })], notes: '1 tsp ghee per paratha.' },
      { items: [food('Oats with milk, banana and peanut butter', 1, 'bowl', { g: 300 })] },
      { items: [food('Masala omelette (3 eggs)', 1, 'piece', { g: 150 }), food('Vegetable poha', 1, 'katori', { g: 150 })] },
    ],
  },
  {
    time: '11:00',
    name: 'Mid-morning',
    options: [
      { items: [food('Banana-peanut butter shake', 1, 'glass', { ml: 300 })] },
      { items: [food('Peanut chikki', 1, 'piece', { g: 25 }), food('Lassi, sweet', 1, 'glass', { ml: 250 })] },
    ],
  },
  {
    time: '13:30',
    name: 'Lunch',
    options: [
      {
        items: [
          food('Jeera rice', 1.5, 'katori', { g: 200 }),
          food('Chicken curry', 1, 'katori', { g: 150 }),
          food('Phulka', 2, 'roti', { g: 60 }),
          food('Kachumber salad', 1, 'plate', { g: 100 }),
        ],
      },
      {
        items: [
          food('Steamed rice', 1.5, 'katori', { g: 200 }),
          food('Rajma', 1, 'katori', { g: 150 }),
          food('Curd', 1, 'katori', { g: 150 }),
        ],
      },
      {
        items: [
          food('Steamed rice', 1.5, 'katori', { g: 200 }),
          food('Fish curry (rohu)', 1, 'katori', { g: 150 }),
          food('Beans poriyal', 1, 'katori', { g: 100 }),
        ],
      },
    ],
  },
  {
    time: '17:00',
    name: 'Pre-workout',
    options: [
      { items: [food('Sweet potato chaat', 1, 'katori', { g: 150 }), food('Black coffee', 1, 'cup', { ml: 150 })] },
      { items: [food('Peanut butter toast', 2, 'slice', { g: 70 })] },
    ],
  },
  {
    time: '19:30',
    name: 'Post-workout',
    options: [
      { items: [food('Boiled eggs', 3, 'piece', { g: 150 }), food('Banana', 1, 'piece', { g: 120 })] },
      { items: [food('Paneer cubes, sautéed', 1, 'katori', { g: 100 }), food('Chana sundal', 1, 'katori', { g: 100 })] },
    ],
  },
  {
    time: '21:00',
    name: 'Dinner',
    options: [
      {
        items: [
          food('Phulka', 3, 'roti', { g: 90 }),
          food('Soya keema', 1, 'katori', { g: 150 }),
          food('Dal tadka', 1, 'katori', { g: 150 }),
        ],
      },
      {
        items: [
          food('Phulka', 3, 'roti', { g: 90 }),
          food('Chicken tikka masala', 1, 'katori', { g: 150 }),
          food('Salad', 1, 'plate', { g: 100 }),
        ],
      },
    ],
  },
  {
    time: '22:30',
    name: 'Bedtime',
    options: [{ items: [food('Warm milk', 1, 'glass', { ml: 250 }), food('Dates', 2, 'piece', { g: 16 })] }],
  },
];

export function rohanDietPlan(today: string): ComposedDietPlanInput {
  const from = addDays(today, -10);
  return {
    title: 'Lean muscle gain, month 1',
    from,
    to: addDays(from, 27),
    days: rotate(rohanSlots, 0),
    guidelines: [
      'Eat every 2.5 to 3 hours; never train on an empty stomach.',
      'Protein target: about 110 g a day, spread over breakfast, lunch, post-workout and dinner.',
      'Drink 3.5 litres of water, more on training days.',
      'Sleep 7 to 8 hours: muscle is built while you rest.',
      'A 1 kg tub of peanut butter (about ₹450) covers a month of shakes and toasts.',
    ],
  };
}

/* ------------------------------ linked to the food library ------------------------------ */

/**
 * The demo plans' foods that the library has: the demo recipes by key, IFCT 2017's raw foods by
 * code. The rest (chutneys, salads, teas...) stay free text, as a dietitian's plan would have some.
 */
const LINKS: Record<string, { recipe: string } | { ifct: string }> = {
  Phulka: { recipe: 'roti' },
  'Phulka (whole wheat)': { recipe: 'roti' },
  'Steamed rice': { recipe: 'rice' },
  'Dal tadka': { recipe: 'toor-dal' },
  Sambar: { recipe: 'sambar' },
  Idli: { recipe: 'idli' },
  Rajma: { recipe: 'rajma' },
  'Moong dal khichdi': { recipe: 'khichdi' },
  'Vegetable upma (suji)': { recipe: 'upma' },
  'Vegetable poha': { recipe: 'poha' },
  'Vegetable poha with peas': { recipe: 'poha' },
  Chole: { recipe: 'chana-masala' },
  'Palak paneer': { recipe: 'palak-paneer' },
  Banana: { ifct: 'E012' },
  Dates: { ifct: 'E018' },
  Guava: { ifct: 'E028' },
  Papaya: { ifct: 'E049' },
  'Soaked almonds': { ifct: 'H001' },
  'Walnut halves': { ifct: 'H021' },
  'Coconut water': { ifct: 'K002' },
  'Full-cream milk': { ifct: 'L002' },
  'Warm milk': { ifct: 'L002' },
};

/**
 * The plans with each item the library has linked to its food (their weighed grams kept, so a day
 * adds up as the dietitian portioned it). Items whose food is not loaded stay free text: the demo
 * works without IFCT too.
 */
export async function linkDemoPlans(db: Db, plans: readonly ComposedDietPlanInput[]): Promise<ComposedDietPlanInput[]> {
  const links = Object.values(LINKS);
  const [recipes, ifct] = await Promise.all([
    foodIdsBySourceRef(
      db,
      'clinic',
      links.flatMap((l) => ('recipe' in l ? [demoRecipeRef(l.recipe)] : [])),
    ),
    foodIdsBySourceRef(
      db,
      'ifct2017',
      links.flatMap((l) => ('ifct' in l ? [l.ifct] : [])),
    ),
  ]);
  const foodIdOf = (name: string) => {
    const link = LINKS[name];
    if (!link) return undefined;
    return 'recipe' in link ? recipes.get(demoRecipeRef(link.recipe)) : ifct.get(link.ifct);
  };
  return plans.map((plan) => ({
    ...plan,
    days: plan.days.map((day) => ({
      ...day,
      meals: day.meals.map((meal) => ({
        ...meal,
        items: meal.items.map((item) => {
          const foodId = foodIdOf(item.food);
          return foodId === undefined ? item : { ...item, foodId };
        }),
      })),
    })),
  }));
}

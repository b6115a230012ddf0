import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { dietPlanRow, dietPlanView, listDietPlansInput } from './schema.js';

const idParams = z.object({ id: z.string().describe('The diet plan’s id') });

export const dietPlanRoutes = defineRoutes([
  {
    method: 'get',
    path: '/diet-plan/get-diet-plan',
    summary:
      'A client’s diet plans, newest first, one page at a time (page is zero-based). `count` beside `data` is the total. ' +
      'Each pdfURL is a signed link that opens the PDF without a token for about 15 minutes.',
    tag: 'Diet plans',
    auth: 'required',
    clientData: true,
    request: { query: listDietPlansInput },
    response: z.array(dietPlanRow),
    responseExtra: { count: z.number().int().describe('Total number of the client’s plans') },
    handle: async ({ caller, query }) => {
      const { data, count } = await caller.dietPlan.list(untrusted(query));
      return { message: 'Diet plans loaded', data, extra: { count } };
    },
  },
  {
    method: 'get',
    path: '/diet-plans/:id',
    summary:
      'One diet plan: its days and meals, each item linked to a food with its grams and nutrients, and each meal’s and day’s ' +
      'totals (values unrounded, in the units of /api/foods). A client reads their own (404 for any other); when their dietitian ' +
      'hides numbers, `numbers` is false and grams, nutrients and totals are null. An uploaded plan has `days: null`.',
    tag: 'Diet plans',
    auth: 'required',
    request: { params: idParams },
    response: dietPlanView,
    handle: async ({ caller, params }) => ({ message: 'Diet plan loaded', data: await caller.dietPlan.get(untrusted({ id: params.id })) }),
  },
]);

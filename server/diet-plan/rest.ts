import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { dietPlanRow, listDietPlansInput } from './schema.js';

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
]);

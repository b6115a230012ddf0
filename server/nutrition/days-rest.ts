import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { nutritionDay, nutritionDays } from './days-schema.js';

export const nutritionDaysRoutes = defineRoutes([
  {
    method: 'get',
    path: '/nutrition/days',
    summary:
      'What a client ate adds up to, per day of from..to (YYYY-MM-DD, India time; the last 7 days by default, at most 92): the meals, the totals of the foods logged (values per nutrient, and how many items did not know each), the client’s daily targets and each nutrient’s share of its target (0.8 = 80 %). A client reads their own (clientId may be left out; no days while their dietitian keeps the numbers from them, showNumbers false); a dietitian names the client',
    tag: 'Nutrition',
    auth: 'required',
    clientData: true,
    request: {
      query: z.object({ clientId: z.string().optional(), from: z.string().optional(), to: z.string().optional() }),
    },
    response: z.array(nutritionDay),
    responseExtra: {
      clientId: z.number().int(),
      from: z.string(),
      to: z.string(),
      targets: nutritionDays.shape.targets,
      showNumbers: z.boolean(),
    },
    errors: { 403: 'A client reads only their own days.' },
    handle: async ({ caller, query }) => {
      const { days, ...rest } = await caller.nutritionDays.list(untrusted(query));
      return {
        message: rest.showNumbers || days.length ? 'Days loaded' : 'Your dietitian keeps the numbers for you.',
        data: days,
        extra: rest,
      };
    },
  },
]);

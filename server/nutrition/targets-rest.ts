import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { setTargetsFields, suggestionAnswer, suggestionInput, targetsView } from './targets-schema.js';

const clientIdQuery = z.object({ clientId: z.string().optional().describe('The client’s id (a client may leave it out for their own)') });

export const nutritionTargetsRoutes = defineRoutes([
  {
    method: 'get',
    path: '/nutrition-targets',
    summary:
      'A client’s daily nutrition targets (energy in kcal, macronutrients and fibre in g, the micronutrients the dietitian follows in mg or µg) and whether the client sees numbers. A client reads their own: while their dietitian keeps numbers from them (showNumbers false) targets and basis are null. A dietitian names the client',
    tag: 'Nutrition',
    auth: 'required',
    clientData: true,
    request: { query: clientIdQuery },
    response: targetsView,
    errors: { 403: 'A client reads only their own targets.' },
    handle: async ({ caller, query }) => {
      const view = await caller.nutritionTargets.get(untrusted(query));
      return { message: view.set ? 'Targets loaded' : 'No targets have been set yet', data: view };
    },
  },
  {
    method: 'put',
    path: '/nutrition-targets',
    summary:
      'Set a client’s daily targets (dietitians): the whole set (a nutrient left out has no target), showNumbers (false hides every number from the client: eating-disorder care), macronutrients optionally as percentOfEnergy (turned into grams at 4/4/9 kcal per g; energyKcal then required), and the suggestion they started from',
    tag: 'Nutrition',
    auth: 'required',
    clientData: true,
    request: { query: z.object({ clientId: z.string().describe('The client’s id') }), body: setTargetsFields },
    response: targetsView,
    handle: async ({ caller, query, body }) => ({
      message: 'Targets saved',
      data: await caller.nutritionTargets.set(untrusted({ ...(body && typeof body === 'object' ? body : {}), clientId: query.clientId })),
    }),
  },
  {
    method: 'post',
    path: '/nutrition-targets/suggestion',
    summary:
      'Suggested daily targets for a client (dietitians): energy by Mifflin–St Jeor × activity factor, protein per kg, fat as % of energy, carbohydrate the rest, fibre 14 g per 1000 kcal, micronutrients from ICMR–NIN 2020 RDAs. Age, sex, weight, height and activity come from the client’s record unless given in person; nothing is saved',
    tag: 'Nutrition',
    auth: 'required',
    clientData: true,
    request: {
      query: z.object({ clientId: z.string().describe('The client’s id') }),
      body: z.object({ person: suggestionInput.partial().optional() }),
    },
    response: suggestionAnswer,
    errors: { 400: 'A fact the suggestion needs is neither on the client’s record nor given (each named in fieldErrors).' },
    handle: async ({ caller, query, body }) => ({
      message: 'Suggestion ready',
      data: await caller.nutritionTargets.suggest(
        untrusted({ ...(body && typeof body === 'object' ? body : {}), clientId: query.clientId }),
      ),
    }),
  },
]);

import { z } from 'zod';
import { defineRoutes, untrusted } from '../rest/route.js';
import { addWeightInput, createdWeightEntry, deleteWeightInput, listWeightsInput, weightEntry } from './schema.js';

export const weightRoutes = defineRoutes([
  {
    method: 'post',
    path: '/updated-weights/add-updated-weight',
    summary: 'Record a weight for a day (replaces that day’s entry)',
    tag: 'Weight',
    auth: 'required',
    clientData: true,
    request: { body: addWeightInput },
    response: createdWeightEntry,
    successStatus: 201,
    handle: async ({ caller, body }) => ({
      status: 201,
      message: 'Weight updated successfully!',
      data: await caller.weight.add(untrusted(body)),
    }),
  },
  {
    method: 'get',
    path: '/updated-weights/get-updated-weights',
    summary: 'A client’s weight history, newest first',
    tag: 'Weight',
    auth: 'required',
    clientData: true,
    request: { query: listWeightsInput },
    response: z.array(weightEntry),
    handle: async ({ caller, query }) => ({
      message: 'Weight history loaded',
      data: await caller.weight.list(untrusted(query)),
    }),
  },
  {
    method: 'delete',
    path: '/updated-weights/delete-updated-weight/:id',
    summary: 'Remove a weight entry',
    tag: 'Weight',
    auth: 'required',
    request: { params: deleteWeightInput },
    response: z.object({ id: z.number().int() }),
    handle: async ({ caller, params }) => ({
      message: 'Weight deleted successfully!',
      data: await caller.weight.remove(untrusted(params)),
    }),
  },
]);

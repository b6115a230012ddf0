import { z } from 'zod';
import { adminProcedure, router } from '../trpc/init.js';
import { byId, messageResult } from '../validation.js';
import {
  clientDetail,
  clientPage,
  clientWeights,
  createClientInput,
  createdClient,
  listClientsInput,
  setClientActiveInput,
  updateClientInput,
} from './schema.js';
import * as service from './service.js';

/** The console's clients: the list, one client's details and weights, adding, editing, deactivating, the invite. */
export const clientsConsoleRouter = router({
  list: adminProcedure
    .input(listClientsInput)
    .output(clientPage)
    .query(({ ctx, input }) => service.listClients(ctx.deps.db, input)),
  get: adminProcedure
    .input(byId)
    .output(clientDetail)
    .query(({ ctx, input }) => service.getClient(ctx.deps.db, input)),
  weights: adminProcedure
    .input(byId)
    .output(clientWeights)
    .query(({ ctx, input }) => service.clientWeights(ctx.deps.db, input)),
  create: adminProcedure
    .input(createClientInput)
    .output(createdClient)
    .mutation(({ ctx, input }) => service.createClient(ctx.deps, ctx.user, input)),
  update: adminProcedure
    .input(updateClientInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.updateClient(ctx.deps.db, ctx.user, input)),
  setActive: adminProcedure
    .input(setClientActiveInput)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.setClientActive(ctx.deps.db, ctx.user, input)),
  resendInvite: adminProcedure
    .input(byId)
    .output(messageResult.extend({ outboxId: z.number().int() }))
    .mutation(({ ctx, input }) => service.resendInvite(ctx.deps, ctx.user, input)),
});

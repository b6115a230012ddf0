import { clientProcedure, router } from '../trpc/init.js';
import {
  clientQuery,
  createDocumentInput,
  createGoalsInput,
  createMeasurementInput,
  createProgressPhotoInput,
  documentItem,
  goalsOverview,
  intake,
  measurement,
  progressPhoto,
  saveIntakeInput,
  savedDocument,
  savedGoals,
  savedMeasurement,
  savedProgressPhoto,
} from './schema.js';
import * as service from './service.js';
import { z } from 'zod';
import { clientToActFor } from '../auth/guards.js';
import { followUpStream } from '../check-in/bus.js';
import { liveSubscriber } from '../trpc/context.js';
import type { CareRecordEvent } from './schema.js';

/** One client's record live, to her own screens and to a dietitian's page of her: which part changed. */
const careRecordStream = followUpStream<number, CareRecordEvent>('care record', (clientId, e) =>
  e.kind === 'care-record' && e.clientId === clientId && e.part ? { kind: 'changed', part: e.part } : null,
);

/**
 * The care record (decision 117): a client's own, or any client's for a
 * dietitian, who names it with clientId. REST twins in rest.ts.
 */
export const careRecordRouter = router({
  intake: router({
    get: clientProcedure
      .input(clientQuery)
      .output(intake)
      .query(({ ctx, input }) => service.getIntake(ctx.deps.db, ctx.user, input.clientId)),
    save: clientProcedure
      .input(saveIntakeInput)
      .output(intake)
      .mutation(({ ctx, input }) => service.saveIntake(ctx.deps, ctx.user, input, ctx.deps.clock())),
  }),
  goals: router({
    get: clientProcedure
      .input(clientQuery)
      .output(goalsOverview)
      .query(({ ctx, input }) => service.goalsOverview(ctx.deps.db, ctx.user, input.clientId, ctx.deps.clock())),
    create: clientProcedure
      .input(createGoalsInput)
      .output(savedGoals)
      .mutation(({ ctx, input }) => service.createGoals(ctx.deps, ctx.user, input, ctx.deps.clock())),
  }),
  measurements: router({
    list: clientProcedure
      .input(clientQuery)
      .output(z.array(measurement))
      .query(({ ctx, input }) => service.listMeasurements(ctx.deps.db, ctx.user, input.clientId)),
    create: clientProcedure
      .input(createMeasurementInput)
      .output(savedMeasurement)
      .mutation(({ ctx, input }) => service.createMeasurement(ctx.deps, ctx.user, input, ctx.deps.clock())),
  }),
  progressPhotos: router({
    list: clientProcedure
      .input(clientQuery)
      .output(z.array(progressPhoto))
      .query(({ ctx, input }) => service.listProgressPhotos(ctx.deps.db, ctx.user, input.clientId, ctx.deps.clock())),
    create: clientProcedure
      .input(createProgressPhotoInput)
      .output(savedProgressPhoto)
      .mutation(({ ctx, input }) => service.createProgressPhoto(ctx.deps, ctx.user, input, ctx.deps.clock())),
  }),
  documents: router({
    list: clientProcedure
      .input(clientQuery)
      .output(z.array(documentItem))
      .query(({ ctx, input }) => service.listDocuments(ctx.deps.db, ctx.user, input.clientId, ctx.deps.clock())),
    create: clientProcedure
      .input(createDocumentInput)
      .output(savedDocument)
      .mutation(({ ctx, input }) => service.createDocument(ctx.deps, ctx.user, input, ctx.deps.clock())),
  }),
  /** 'ready', then 'changed' naming the part (goals, documents, intake, measurements, photos) at every saved change: reload it. */
  events: clientProcedure.input(clientQuery).subscription(async function* ({ ctx, input, signal }) {
    const clientId = await clientToActFor(ctx.deps.db, ctx.user, input.clientId, 'clientId');
    yield* ctx.deps.followUpLive.open(careRecordStream, { viewer: clientId, ...liveSubscriber(ctx, signal) });
  }),
});

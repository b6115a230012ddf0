import { byId, messageResult } from '../validation.js';
import { adminProcedure, router } from '../trpc/init.js';
import { composePlan, previewPlan, revisePlan } from './compose.js';
import {
  composeDietPlanInput,
  dietPlanPage,
  listDietPlansAdminInput,
  pdfFile,
  previewDietPlanInput,
  savedDietPlan,
  uploadDietPlanInput,
  versionPdfInput,
  dietPlanDetail,
  reviseDietPlanInput,
} from './schema.js';
import * as service from './service.js';

/** Diet plans in the console (admin.dietPlans.*): every client's plans, upload, compose, preview, versions. */
export const dietPlansConsoleRouter = router({
  list: adminProcedure
    .input(listDietPlansAdminInput)
    .output(dietPlanPage)
    .query(({ ctx, input }) => service.listAllDietPlans(ctx.deps.db, input)),
  get: adminProcedure
    .input(byId)
    .output(dietPlanDetail)
    .query(({ ctx, input }) => service.getDietPlan(ctx.deps, input)),
  upload: adminProcedure
    .input(uploadDietPlanInput)
    .output(savedDietPlan)
    .mutation(({ ctx, input }) => service.uploadPlan(ctx.deps, ctx.user, input)),
  compose: adminProcedure
    .input(composeDietPlanInput)
    .output(savedDietPlan)
    .mutation(({ ctx, input }) => composePlan(ctx.deps, ctx.user, input)),
  /** A mutation although it changes nothing: its input is a whole plan, too big for a query string. */
  preview: adminProcedure
    .input(previewDietPlanInput)
    .output(pdfFile)
    .mutation(({ ctx, input }) => previewPlan(ctx.deps.db, ctx.user, input)),
  revise: adminProcedure
    .input(reviseDietPlanInput)
    .output(savedDietPlan)
    .mutation(({ ctx, input }) => revisePlan(ctx.deps, ctx.user, input)),
  versionPdf: adminProcedure
    .input(versionPdfInput)
    .output(pdfFile)
    .query(({ ctx, input }) => service.versionPdf(ctx.deps.db, input)),
  remove: adminProcedure
    .input(byId)
    .output(messageResult)
    .mutation(({ ctx, input }) => service.removePlan(ctx.deps.db, ctx.user, input)),
});

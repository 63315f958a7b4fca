import "server-only";
import { z } from "zod";
import { db } from "../../db";
import { browseGenerations, generationFilters, listUsedModels } from "../../generations/records/dashboard-list";
import { requestCancel } from "../../generations/cancel-generation";
import { deleteGeneration } from "../../generations/delete-generation";
import { getGenerationDetail } from "../../generations/records/dashboard-detail";
import { createTRPCRouter, memberProcedure, ownerProcedure } from "../trpc";

// Generations from the dashboard: members browse and read, owners cancel and delete, through the
// same domain functions as /v1/content. Another account's generation id is ERR1006, a malformed
// one too (the domain checks it).

const generationInput = z.object({ generationId: z.string().max(100) });

export const generationsRouter = createTRPCRouter({
  list: memberProcedure.input(generationFilters).query(({ ctx, input }) => browseGenerations(db, ctx.membership.accountId, input)),

  models: memberProcedure.query(({ ctx }) => listUsedModels(db, ctx.membership.accountId)),

  get: memberProcedure.input(generationInput).query(({ ctx, input }) => getGenerationDetail(db, ctx.membership.accountId, input.generationId)),

  cancel: ownerProcedure.input(generationInput).mutation(({ ctx, input }) => requestCancel(ctx.membership.accountId, input.generationId, ctx.userId)),

  delete: ownerProcedure.input(generationInput).mutation(({ ctx, input }) => deleteGeneration(ctx.membership.accountId, input.generationId, ctx.userId)),
});

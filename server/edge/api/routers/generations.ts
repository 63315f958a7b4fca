import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { browseGenerations, generationFilters, listUsedModels } from "../../../generations/records/dashboard-list";
import { requestCancel } from "../../../generations/cancel-generation";
import { cancelBeforeDelete, deleteOutputFiles, markGenerationRemoved } from "../../../generations/delete-generation";
import { forgetRecord } from "../../../generations/records/public-record-cache";
import { inTransaction } from "../../../base/transaction";
import { getGenerationDetail } from "../../../generations/records/dashboard-detail";
import { createTRPCRouter, memberProcedure, ownerProcedure } from "../trpc";

// Generations from the dashboard: members browse and read, owners cancel and delete, through the
// same domain functions as /v1/content. Another account's generation id is ERR1006, a malformed
// one too (the domain checks it).

const generationInput = z.object({ generationId: z.string().max(100) });

export const generationsRouter = createTRPCRouter({
  list: memberProcedure.input(generationFilters).query(({ ctx, input }) => browseGenerations(db, ctx.membership.accountId, input)),

  models: memberProcedure.query(({ ctx }) => listUsedModels(db, ctx.membership.accountId)),

  get: memberProcedure
    .input(generationInput)
    .query(({ ctx, input }) => getGenerationDetail(db, ctx.membership.accountId, input.generationId)),

  cancel: ownerProcedure
    .input(generationInput)
    .mutation(({ ctx, input }) =>
      inTransaction((tx) => requestCancel(tx, ctx.scope, { generationId: input.generationId, actor: ctx.userId })),
    ),

  delete: ownerProcedure.input(generationInput).mutation(async ({ ctx, input }) => {
    const command = { generationId: input.generationId, actor: ctx.userId };
    const row = await inTransaction((tx) => cancelBeforeDelete(tx, ctx.scope, command));
    const filesDeleted = await deleteOutputFiles(row);
    const removed = await inTransaction((tx) => markGenerationRemoved(tx, ctx.scope, { row, filesDeleted, actor: ctx.userId }));
    forgetRecord(row.id);
    return removed;
  }),
});

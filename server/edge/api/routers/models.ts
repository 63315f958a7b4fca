import "server-only";
import { z } from "zod";
import { modelTypeSchema, providerIdSchema, workflowSchema } from "../../contract/catalog";
import { db } from "../../../base/db";
import { env } from "../../../base/env";
import { browseModels } from "../models/browse-models";
import { describeModel } from "../models/describe-model";
import { createTRPCRouter, memberProcedure } from "../trpc";

// The catalog from the dashboard: the Models page and each model's page, read through the same
// library entries as GET /v1/library/models, with health in this deployment's region.

const filters = z.object({
  type: modelTypeSchema.optional(),
  workflow: workflowSchema.optional(),
  provider: providerIdSchema.optional(),
  maxPrice: z.number().nonnegative().max(1_000_000).optional(),
  search: z.string().max(100).optional(),
});

const context = () => ({ region: env().REGION, now: new Date(), database: db });

export const modelsRouter = createTRPCRouter({
  list: memberProcedure.input(filters).query(({ input }) => browseModels(input, context())),

  get: memberProcedure
    .input(z.object({ identifier: z.string().min(1).max(200) }))
    .query(({ input }) => describeModel(input.identifier, context())),
});

import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { env } from "../../../base/env";
import { getDailyUsage } from "../../../usage/daily-usage";
import { getUsage } from "../../../usage/get-usage";
import { createTRPCRouter, memberProcedure } from "../trpc";

// The usage page: GET /v1/usage's summary (the same function, the same 1–90 day window) and the
// per-day series of the same figures for its charts, for this deployment's REGION.

export const usageRouter = createTRPCRouter({
  summary: memberProcedure.input(z.object({ days: z.number().int().min(1).max(90).default(30) })).query(async ({ ctx, input }) => {
    const now = new Date();
    const region = env().REGION;
    const [summary, daily] = await Promise.all([
      getUsage(db, ctx.scope, { days: input.days, region, now }),
      getDailyUsage(db, ctx.scope, { days: input.days, region, now }),
    ]);
    return { region, summary, daily };
  }),
});

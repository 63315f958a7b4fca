import "server-only";
import { activityFilters, listActivity } from "../../../activity/list-activity";
import { db } from "../../../base/db";
import { createTRPCRouter, memberProcedure } from "../trpc";

// The account's audit feed (spec §2, activity event): every member reads it; domain functions
// write it (recordActivity, inside their transaction), never this router.

export const activityRouter = createTRPCRouter({
  list: memberProcedure.input(activityFilters).query(({ ctx, input }) => listActivity(db, ctx.scope, input)),
});

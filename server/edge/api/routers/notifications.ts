import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { listNotifications } from "../../../notifications/list-notifications";
import { markNotificationsRead } from "../../../notifications/mark-notifications-read";
import { createTRPCRouter, memberProcedure } from "../trpc";

// The bell in the dashboard's top bar: the in-app channel of low-balance alerts.

export const notificationsRouter = createTRPCRouter({
  list: memberProcedure.query(({ ctx }) => listNotifications(db, ctx.scope, { userId: ctx.userId })),

  markRead: memberProcedure
    .input(z.object({ ids: z.array(z.string()).min(1).max(100).optional() }))
    .mutation(({ ctx, input }) => markNotificationsRead({ accountId: ctx.membership.accountId, userId: ctx.userId, ids: input.ids })),
});

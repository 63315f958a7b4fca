import "server-only";
import { getBalance } from "../../../ledger/get-balance";
import { millisToDecimalString } from "../../../base/money";
import { listMemberships } from "../../../accounts/find-membership";
import { listRecentActivity } from "../../../activity/list-recent-activity";
import { getDailyActivity } from "../../../usage/daily-activity";
import { db } from "../../../base/db";
import { authedProcedure, createTRPCRouter, memberProcedure } from "../trpc";

// The accounts a user belongs to (the account switcher) and the one being viewed.

export const accountRouter = createTRPCRouter({
  list: authedProcedure.query(({ ctx }) => listMemberships(ctx.userId)),

  get: memberProcedure.query(async ({ ctx }) => {
    const account = await db.account.findUniqueOrThrow({ where: { id: ctx.membership.accountId } });
    return {
      accountId: account.id,
      name: account.name,
      email: account.email,
      plan: account.plan,
      region: account.region,
      creditBalance: millisToDecimalString(await getBalance(db, account.id)),
      role: ctx.membership.role,
      createdAt: account.createdAt,
    };
  }),

  dailyActivity: memberProcedure.query(({ ctx }) => getDailyActivity(db, ctx.scope, { days: 30 })),

  recentActivity: memberProcedure.query(({ ctx }) => listRecentActivity(db, ctx.scope, { limit: 8 })),
});

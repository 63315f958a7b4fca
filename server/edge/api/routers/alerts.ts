import "server-only";
import { z } from "zod";
import { getBalance } from "../../../ledger/get-balance";
import { millisToDecimalString } from "../../../base/money";
import { db } from "../../../base/db";
import { getThresholds, MAX_THRESHOLDS, setThresholds } from "../../../alerts/thresholds";
import { createTRPCRouter, memberProcedure, primaryOwnerProcedure } from "../trpc";
import { inTransaction } from "../../../base/transaction";

// Low-balance alert thresholds: everyone in the account sees them; only the primary
// owner replaces the list (the role rule is enforced again inside setThresholds).

export const alertsRouter = createTRPCRouter({
  get: memberProcedure.query(async ({ ctx }) => {
    const accountId = ctx.membership.accountId;
    const [thresholds, balance] = await Promise.all([getThresholds(db, ctx.scope), getBalance(db, accountId)]);
    return {
      thresholds,
      balance: millisToDecimalString(balance),
      maxThresholds: MAX_THRESHOLDS,
      canEdit: ctx.membership.role === "primary_owner",
    };
  }),

  set: primaryOwnerProcedure
    .input(z.object({ thresholds: z.array(z.union([z.string().max(32), z.number()])).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const thresholds = await inTransaction((tx) =>
        setThresholds(tx, { accountId: ctx.membership.accountId, amounts: input.thresholds, actorUserId: ctx.userId }),
      );
      return { thresholds };
    }),
});

import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { getAccountSpend } from "../../../spend/account-spend";
import { getKeySpend } from "../../../spend/key-spend";
import { listKeySpends } from "../../../spend/list-key-spends";
import { spendPeriods } from "../../../spend/periods";
import { setAccountSpendLimit } from "../../../spend/set-account-spend-limit";
import { setKeySpendLimit } from "../../../spend/set-key-spend-limit";
import { parseSpendLimit } from "../../../spend/spend-limit-input";
import { inTransaction } from "../../../base/transaction";
import { createTRPCRouter, memberProcedure, ownerProcedure, primaryOwnerProcedure } from "../trpc";

// Spend limits from the dashboard: every member reads the keys' budgets and the account's monthly
// limit; owners set or clear a key's limit; only the primary owner sets the account's.

const id = z.string().max(100);
/** Credits as typed (checked to 3 decimals by the domain), or null to clear. */
const limit = z.union([z.string().max(32), z.number()]).nullable();

export const spendRouter = createTRPCRouter({
  keys: memberProcedure.query(({ ctx }) => listKeySpends(db, ctx.scope)),

  key: memberProcedure.input(z.object({ keyId: id })).query(({ ctx, input }) => getKeySpend(db, ctx.scope, input.keyId)),

  setKeyLimit: ownerProcedure
    .input(z.object({ keyId: id, spendLimit: limit, spendPeriod: z.enum(spendPeriods).optional() }))
    .mutation(({ ctx, input }) => {
      const limitMillis = parseSpendLimit(input.spendLimit, "spend_limit");
      return inTransaction((tx) =>
        setKeySpendLimit(tx, ctx.scope, { keyId: input.keyId, limitMillis, period: input.spendPeriod, actor: ctx.userId }),
      );
    }),

  account: memberProcedure.query(({ ctx }) => getAccountSpend(db, ctx.scope, ctx.membership.accountId)),

  setAccountLimit: primaryOwnerProcedure.input(z.object({ monthlySpendLimit: limit })).mutation(({ ctx, input }) => {
    const limitMillis = parseSpendLimit(input.monthlySpendLimit, "monthly_spend_limit");
    return inTransaction((tx) =>
      setAccountSpendLimit(tx, ctx.scope, { accountId: ctx.membership.accountId, limitMillis, actor: ctx.userId }),
    );
  }),
});

import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { requestHostnameCheck } from "../../../hostnames/check-hostname";
import { toCustomHostnameRecord } from "../../../hostnames/hostname-record";
import { removeCustomHostname } from "../../../hostnames/remove-hostname";
import { hostnameTarget } from "../../../hostnames/service-domains";
import { setCustomHostname } from "../../../hostnames/set-hostname";
import { MAX_HOSTNAME_LENGTH } from "../../../hostnames/validate-hostname";
import { inTransaction } from "../../../base/transaction";
import { createTRPCRouter, memberProcedure, ownerProcedure } from "../trpc";

// The account's custom hostname (Enterprise): everyone in the account sees it and its DNS record;
// owners set, re-check and remove it. Another plan reads `enterprise: false` and is refused
// ERR1003 by the domain functions whatever the page shows.

export const hostnamesRouter = createTRPCRouter({
  get: memberProcedure.query(async ({ ctx }) => {
    const accountId = ctx.membership.accountId;
    const [account, row] = await Promise.all([
      db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } }),
      db.customHostname.findUnique({ where: { accountId } }),
    ]);
    return {
      hostname: row ? toCustomHostnameRecord(row) : null,
      target: row?.target ?? hostnameTarget(),
      plan: account.plan,
      enterprise: account.plan === "enterprise",
      canManage: ctx.membership.role !== "member",
    };
  }),

  set: ownerProcedure
    .input(z.object({ hostname: z.string().max(MAX_HOSTNAME_LENGTH + 50) }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) => setCustomHostname(tx, { accountId: ctx.membership.accountId, hostname: input.hostname, actor: ctx.userId })),
    ),

  check: ownerProcedure.mutation(({ ctx }) =>
    inTransaction((tx) => requestHostnameCheck(tx, { accountId: ctx.membership.accountId, actor: ctx.userId })),
  ),

  remove: ownerProcedure.mutation(({ ctx }) =>
    inTransaction((tx) => removeCustomHostname(tx, { accountId: ctx.membership.accountId, actor: ctx.userId })),
  ),
});

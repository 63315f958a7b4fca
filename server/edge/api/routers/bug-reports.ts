import "server-only";
import { bugReportInput } from "../../../bug-reports/bug-report-input";
import { consumeBugReportAllowance, submitBugReport } from "../../../bug-reports/submit-bug-report";
import { inTransaction } from "../../../base/transaction";
import { createTRPCRouter, memberProcedure } from "../trpc";

// "Report a problem": any member files one on an account they belong to (memberProcedure refuses
// others with ERR1006). Bad input is refused before it counts against the hourly limit.

export const bugReportsRouter = createTRPCRouter({
  submit: memberProcedure.input(bugReportInput).mutation(async ({ ctx, input }) => {
    await consumeBugReportAllowance(ctx.userId);
    return inTransaction((tx) =>
      submitBugReport(tx, { ...input, accountId: ctx.membership.accountId, userId: ctx.userId, userAgent: ctx.userAgent ?? null }),
    );
  }),
});

import "server-only";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";

// Custom hostnames are an Enterprise feature. Another plan is refused with ERR1003 (403, like every
// "not allowed for you" refusal of the table) naming the plan that has it; removing stays open to
// every plan, so an account that left Enterprise can take its hostname down.

export async function requireEnterprise(db: Db, accountId: string): Promise<void> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { plan: true } });
  if (!account) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  if (account.plan !== "enterprise") {
    throw new ApiError("ERR1003", "Custom hostnames are part of the Enterprise plan.", { required_plan: "enterprise", plan: account.plan });
  }
}

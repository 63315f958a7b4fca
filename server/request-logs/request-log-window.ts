import "server-only";
import type { AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { planLimits, planNames } from "../plans/plan-limits";

// What a reader may see of the log: rows no older than the account's plan window (spec §8, 1 day
// to 1 year), to the millisecond, whatever retention has not deleted yet. A row exactly one window
// old is still shown, as retention keeps it.

/** The longest plan window, in seconds: older weeks are dropped whole. */
export const LONGEST_REQUEST_LOG_WINDOW_S = Math.max(...planNames.map((plan) => planLimits[plan].retention.requestLogs));

/** The oldest moment a reader of `scope` sees (the operator: the longest window); null for an account that does not exist. */
export async function requestLogWindowStart(db: Db, scope: AccountScope, now: Date): Promise<Date | null> {
  if (!("accountId" in scope)) return new Date(now.getTime() - LONGEST_REQUEST_LOG_WINDOW_S * 1000);
  const account = await db.account.findUnique({ where: { id: scope.accountId }, select: { plan: true } });
  return account ? new Date(now.getTime() - planLimits[account.plan].retention.requestLogs * 1000) : null;
}

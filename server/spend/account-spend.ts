import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { decimalToMillis, formatCredits } from "../base/money";
import { periodFirstDay, periodResetsAt } from "./periods";
import { readSpend } from "./read-spend";
import { isGuid } from "../base/guid";

// The account's spend this calendar month (UTC) over all its keys and the dashboard, and its
// monthly limit if it has one.

export type AccountSpend = {
  account_id: string;
  monthly_spend_limit: number | null;
  spend_used: number;
  spend_resets_at: string;
};

/** ERR1006 for an account outside the scope (or deleted). */
export async function getAccountSpend(db: Db, scope: AccountScope, accountId: string, now = new Date()): Promise<AccountSpend> {
  const inScope = !("accountId" in scope) || scopeWhere(scope).accountId === accountId;
  const row =
    inScope && isGuid(accountId)
      ? await db.account.findFirst({ where: { id: accountId, deletedAt: null }, select: { id: true, monthlySpendLimit: true } })
      : null;
  if (!row) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  const used = await readSpend(db, row.id, periodFirstDay("month", now));
  return {
    account_id: row.id,
    monthly_spend_limit: row.monthlySpendLimit === null ? null : formatCredits(decimalToMillis(row.monthlySpendLimit)),
    spend_used: formatCredits(used),
    spend_resets_at: (periodResetsAt("month", now) as Date).toISOString(),
  };
}

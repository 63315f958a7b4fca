import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { millisToDecimalString, type Millicredits } from "../base/money";
import { getAccountSpend, type AccountSpend } from "./account-spend";
import { isGuid } from "../base/guid";

// Sets or clears the account's monthly spend limit (all keys together), under the account row
// lock every create's check takes.

export type SetAccountSpendLimitInput = { accountId: string; limitMillis: Millicredits | null; actor: ActivityActor; now?: Date };

export async function setAccountSpendLimit(tx: Tx, scope: AccountScope, input: SetAccountSpendLimitInput): Promise<AccountSpend> {
  const { accountId } = input;
  const inScope = !("accountId" in scope) || scopeWhere(scope).accountId === accountId;
  const limit = input.limitMillis === null ? null : millisToDecimalString(input.limitMillis);
  const updated =
    inScope && isGuid(accountId)
      ? await tx.$executeRaw`UPDATE account SET monthly_spend_limit = ${limit}::numeric, updated_at = now() WHERE id = ${accountId}::uuid AND deleted_at IS NULL`
      : 0;
  if (updated !== 1) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  await recordActivity(tx, {
    accountId,
    actor: input.actor,
    category: "account",
    action: limit === null ? "account.spend_limit_cleared" : "account.spend_limit_set",
    description: limit === null ? "Monthly spend limit cleared" : `Monthly spend limit set to ${limit} credits`,
    metadata: { monthly_spend_limit: limit === null ? null : Number(limit) },
  });
  return getAccountSpend(tx, scope, accountId, input.now ?? new Date());
}

import { touchAccountRow } from "../accounts/touch-account-row";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { millisToDecimalString, type Millicredits } from "../base/money";
import { budgetIdOf, keySpendOf, keySpendSelect, type KeySpend } from "./key-spend";
import type { SpendPeriod } from "./periods";
import { isGuid } from "../base/guid";

// Sets or clears a key's spend limit. The limit belongs to the key's budget, so every key of its
// rotation lineage (the old key in its grace period, the successor) gets it. Taken under the
// account row lock, like every create's check: a create sees the old limit or the new, whole.

export type SetKeySpendLimitInput = {
  keyId: string;
  /** null clears the limit (and the period). */
  limitMillis: Millicredits | null;
  /** Kept when omitted; `month` for a key that had none. */
  period?: SpendPeriod;
  actor: ActivityActor;
  now?: Date;
};

export async function setKeySpendLimit(tx: Tx, scope: AccountScope, input: SetKeySpendLimitInput): Promise<KeySpend> {
  const key = isGuid(input.keyId)
    ? await tx.apiKey.findFirst({
        where: { id: input.keyId, ...scopeWhere(scope) },
        select: { ...keySpendSelect, accountId: true, name: true, prefix: true },
      })
    : null;
  if (!key) throw new ApiError("ERR1006", "API key not found.", { apikey_id: input.keyId });
  // The account's lock (ordered against creates), and its row written: a create in one statement must see it changed.
  await touchAccountRow(tx, key.accountId);

  const period = input.limitMillis === null ? null : (input.period ?? key.spendPeriod ?? "month");
  const budgetId = budgetIdOf(key);
  const limit = input.limitMillis === null ? null : millisToDecimalString(input.limitMillis);
  await tx.$executeRaw`
    UPDATE api_key SET spend_limit = ${limit}::numeric, spend_period = ${period}::"SpendPeriod", spend_budget_id = ${budgetId}::uuid
     WHERE account_id = ${key.accountId}::uuid AND coalesce(spend_budget_id, id) = ${budgetId}::uuid`;

  await recordActivity(tx, {
    accountId: key.accountId,
    actor: input.actor,
    category: "api_key",
    action: limit === null ? "api_key.spend_limit_cleared" : "api_key.spend_limit_set",
    description:
      limit === null
        ? `Spend limit of API key "${key.name}" (${key.prefix}) cleared`
        : `Spend limit of API key "${key.name}" (${key.prefix}) set to ${limit} credits per ${period}`,
    metadata: { apikey_id: key.id, spend_limit: limit === null ? null : Number(limit), spend_period: period },
  });
  return keySpendOf(tx, { id: key.id, spendBudgetId: budgetId, spendLimit: limit, spendPeriod: period }, input.now ?? new Date());
}

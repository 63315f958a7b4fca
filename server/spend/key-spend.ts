import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { KeyRefused } from "../keys/key-refused";
import { decimalToMillis, formatCredits, type DecimalLike, type Millicredits } from "../base/money";
import { periodFirstDay, periodResetsAt, type SpendPeriod } from "./periods";
import { readSpend } from "./read-spend";
import { isGuid } from "../base/guid";

// A key's budget as the CLI, /v1/status and the dashboard show it. A rotated key's successor
// carries the same budget id, so the lineage reads (and spends) one budget. Without a limit the
// key has no period: spend_used is everything its budget ever spent.

export type KeySpendRow = {
  id: string;
  spendBudgetId: string | null;
  spendLimit: DecimalLike | string | null;
  spendPeriod: SpendPeriod | null;
};

export type KeySpend = {
  apikey_id: string;
  spend_limit: number | null;
  spend_period: SpendPeriod | null;
  spend_used: number;
  spend_resets_at: string | null;
};

export const budgetIdOf = (row: Pick<KeySpendRow, "id" | "spendBudgetId">) => row.spendBudgetId ?? row.id;

export const keySpendSelect = { id: true, spendBudgetId: true, spendLimit: true, spendPeriod: true } as const;

export async function keySpendOf(db: Db, row: KeySpendRow, now: Date): Promise<KeySpend> {
  const limit: Millicredits | null = row.spendLimit === null ? null : decimalToMillis(row.spendLimit);
  const period = limit === null ? null : (row.spendPeriod ?? "month");
  const used = await readSpend(db, budgetIdOf(row), periodFirstDay(period ?? "total", now));
  return {
    apikey_id: row.id,
    spend_limit: limit === null ? null : formatCredits(limit),
    spend_period: period,
    spend_used: formatCredits(used),
    spend_resets_at: period === null ? null : (periodResetsAt(period, now)?.toISOString() ?? null),
  };
}

async function findKeySpendRow(db: Db, scope: AccountScope, keyId: string) {
  return isGuid(keyId) ? db.apiKey.findFirst({ where: { id: keyId, ...scopeWhere(scope) }, select: keySpendSelect }) : null;
}

/** ERR1006 for a key outside the scope. */
export async function getKeySpend(db: Db, scope: AccountScope, keyId: string, now = new Date()): Promise<KeySpend> {
  const row = await findKeySpendRow(db, scope, keyId);
  if (!row) throw new ApiError("ERR1006", "API key not found.", { apikey_id: keyId });
  return keySpendOf(db, row, now);
}

/**
 * The budget of the key making a /v1 request. The key was deleted if its row is gone: the change
 * reaches the key caches just after its commit, so a request can pass the checkpoint in between;
 * it is refused as the checkpoint would refuse it (ERR1002), never "not found".
 */
export async function requestingKeySpend(db: Db, scope: AccountScope, keyId: string, now = new Date()): Promise<KeySpend> {
  const row = await findKeySpendRow(db, scope, keyId);
  if (!row) throw new KeyRefused("key_deleted");
  return keySpendOf(db, row, now);
}

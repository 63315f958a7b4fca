import { Prisma } from "../base/generated/prisma/client";
import { ApiError } from "../base/error-table";
import { decimalToMillis, formatCredits, millisToDecimalString, type Millicredits } from "../base/money";
import { periodFirstDay, periodResetsAt, type SpendPeriod } from "./periods";

// The spend-limit check of a create, inside its transaction and after the account row lock (so
// every create, charge and refund of the account is counted one at a time, on every instance).
// It adds no round trip, accepted or refused: the counters are summed in a WITH item of the
// generation's INSERT, whose WHERE refuses the row when the cost would take a budget past its
// limit; the statement answers the new id (or null) with the spend before this create, which says
// why a refusal was one and feeds the alerts.

export type SpendLimits = {
  accountId: string;
  key: { apiKeyId: string; budgetId: string; limitMillis: Millicredits; period: SpendPeriod } | null;
  account: { limitMillis: Millicredits } | null;
};

/** The limit columns read with the account row lock (server/generations/reserve-and-record.ts). */
export type LimitColumns = {
  account_limit: string | null;
  key_limit: string | null;
  key_period: SpendPeriod | null;
  key_budget: string | null;
};

export function spendLimitsOf(accountId: string, apiKeyId: string, row: LimitColumns): SpendLimits | null {
  const key =
    row.key_limit !== null && row.key_budget !== null
      ? { apiKeyId, budgetId: row.key_budget, limitMillis: decimalToMillis(row.key_limit), period: row.key_period ?? "month" }
      : null;
  const account = row.account_limit !== null ? { limitMillis: decimalToMillis(row.account_limit) } : null;
  return key || account ? { accountId, key, account } : null;
}

const usedSql = (budgetId: string, fromDay: string) =>
  Prisma.sql`(SELECT coalesce(sum(used), 0) FROM spend_counter WHERE budget_id = ${budgetId}::uuid AND day >= ${fromDay}::date)`;

/** The statement's parts: the `spend` WITH item, the INSERT's WHERE condition, and the final SELECT over `spend` and `inserted`. */
export function spendCheckSql(limits: SpendLimits, costMillis: Millicredits, now: Date) {
  const { key, account } = limits;
  const cost = millisToDecimalString(costMillis);
  const keyUsed = key ? usedSql(key.budgetId, periodFirstDay(key.period, now)) : Prisma.sql`0::numeric`;
  const accountUsed = account ? usedSql(limits.accountId, periodFirstDay("month", now)) : Prisma.sql`0::numeric`;
  return {
    with: Prisma.sql`WITH spend AS (SELECT ${keyUsed} AS key_used, ${accountUsed} AS account_used)`,
    condition: Prisma.sql`
      AND (SELECT key_used + ${cost}::numeric <= ${key ? millisToDecimalString(key.limitMillis) : null}::numeric OR ${key === null} FROM spend)
      AND (SELECT account_used + ${cost}::numeric <= ${account ? millisToDecimalString(account.limitMillis) : null}::numeric OR ${account === null} FROM spend)`,
    select: Prisma.sql`SELECT (SELECT id::text FROM inserted) AS id, key_used::text AS key_used, account_used::text AS account_used FROM spend`,
  };
}

export type SpendBefore = { keyUsedMillis: Millicredits; accountUsedMillis: Millicredits };

export type SpendColumns = { key_used?: string; account_used?: string };

export function spendBeforeOf(row: SpendColumns): SpendBefore {
  return { keyUsedMillis: decimalToMillis(row.key_used ?? "0"), accountUsedMillis: decimalToMillis(row.account_used ?? "0") };
}

/** After a refused insert: ERR1014 for the first budget the cost would overrun (the key's, then the account's), else null. */
export function spendRefusal(limits: SpendLimits, before: SpendBefore, costMillis: Millicredits, now: Date): ApiError | null {
  if (limits.key) {
    const { limitMillis, period } = limits.key;
    const used = before.keyUsedMillis;
    if (used + costMillis > limitMillis)
      return refusal(
        "apikey",
        `per ${period === "total" ? "key lifetime" : period}`,
        limitMillis,
        used,
        costMillis,
        periodResetsAt(period, now),
      );
  }
  if (limits.account) {
    const used = before.accountUsedMillis;
    if (used + costMillis > limits.account.limitMillis)
      return refusal("account", "per month", limits.account.limitMillis, used, costMillis, periodResetsAt("month", now));
  }
  return null;
}

function refusal(
  scope: "apikey" | "account",
  per: string,
  limit: Millicredits,
  used: Millicredits,
  requested: Millicredits,
  resetsAt: Date | null,
): ApiError {
  const whose = scope === "apikey" ? "The API key's" : "The account's";
  return new ApiError(
    "ERR1014",
    `${whose} spend limit of ${millisToDecimalString(limit)} credits ${per} would be exceeded: ${millisToDecimalString(used)} used, ${millisToDecimalString(requested)} requested.`,
    {
      scope,
      limit: formatCredits(limit),
      used: formatCredits(used),
      requested: formatCredits(requested),
      resets_at: resetsAt?.toISOString() ?? null,
    },
  );
}

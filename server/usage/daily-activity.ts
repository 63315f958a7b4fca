import "server-only";
import { formatCredits } from "../base/money";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { isGuid } from "../base/guid";
import { generationCounts, ledgerCounts } from "./rollups/usage-counts";
import { usageBuckets } from "./rollups/usage-buckets";
import { utcDays } from "./daily-usage";

// The overview chart: per UTC day of the last `days`, generations by outcome and credits charged,
// every region, from the usage counters. Days without activity are present with zeros, so the
// chart's axis is continuous.

export type DailyActivity = { day: string; succeeded: number; failed: number; canceled: number; charged: number };

export async function getDailyActivity(
  db: Db,
  scope: OneAccount,
  { days = 30, now = new Date() }: { days?: number; now?: Date } = {},
): Promise<DailyActivity[]> {
  const { accountId } = scope;
  if (!isGuid(accountId)) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  const span = Math.min(Math.max(Math.trunc(days), 1), 90);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const buckets = usageBuckets(new Date(today - (span - 1) * 86_400_000), now);
  const [generations, ledger] = await Promise.all([
    generationCounts(db, { accountId, region: null }, buckets),
    ledgerCounts(db, accountId, buckets),
  ]);

  const series = new Map(
    utcDays(buckets.since, buckets.until).map((day) => [day, { day, succeeded: 0, failed: 0, canceled: 0, charged: 0n }]),
  );
  for (const row of generations) {
    const entry = series.get(row.day);
    if (entry && (row.state === "succeeded" || row.state === "failed" || row.state === "canceled")) entry[row.state] += row.generations;
  }
  for (const row of ledger) {
    const entry = series.get(row.day);
    if (entry && row.type === "charge") entry.charged += row.amount_millis < 0n ? -row.amount_millis : row.amount_millis;
  }
  return [...series.values()].map(({ charged, ...counts }) => ({ ...counts, charged: formatCredits(Number(charged)) }));
}

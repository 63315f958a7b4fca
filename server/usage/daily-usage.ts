import "server-only";
import { formatCredits } from "../base/money";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { RegionName } from "../base/env";
import { generationCounts, requestCounts } from "./rollups/usage-counts";
import { usageBuckets } from "./rollups/usage-buckets";
import { COSTING_STATES, usageWindow } from "./usage-window";

// The usage page's charts: per UTC day, /v1 requests by outcome and the estimated spend, over the
// very window and from the very counters of getUsage (GET /v1/usage), so the bars add up to its
// totals, in the same region. The first and last days are partial: the window is [now − days, now].

export type DailyUsage = { day: string; success: number; client_errors: number; server_errors: number; estimated_cost: number };

export async function getDailyUsage(
  database: Db,
  scope: OneAccount,
  input: { days: number; region: RegionName; now?: Date },
): Promise<DailyUsage[]> {
  const { days, region, now = new Date() } = input;
  const period = usageWindow(scope.accountId, days, region, now);
  const buckets = usageBuckets(new Date(period.since), new Date(period.until));
  const counters = { accountId: scope.accountId, region };
  const [requests, generations] = await Promise.all([
    requestCounts(database, counters, buckets),
    generationCounts(database, counters, buckets),
  ]);

  const series = new Map(
    utcDays(buckets.since, buckets.until).map((day) => [day, { day, success: 0, client_errors: 0, server_errors: 0, cost: 0n }]),
  );
  for (const row of requests) {
    const entry = series.get(row.day);
    if (!entry) continue;
    if (row.status_class === 2) entry.success += row.requests;
    if (row.status_class === 4) entry.client_errors += row.requests;
    if (row.status_class === 5) entry.server_errors += row.requests;
  }
  for (const row of generations) {
    const entry = series.get(row.day);
    if (entry && COSTING_STATES.has(row.state)) entry.cost += row.cost_millis;
  }
  return [...series.values()].map(({ cost, ...counts }) => ({ ...counts, estimated_cost: formatCredits(Number(cost)) }));
}

/** Every UTC day from since's to until's, as YYYY-MM-DD. */
export function utcDays(since: Date, until: Date): string[] {
  const days: string[] = [];
  for (let at = Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate()); at <= until.getTime(); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

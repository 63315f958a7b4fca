import type { RegionName } from "../base/env";
import { Prisma } from "../base/generated/prisma/client";

// What GET /v1/usage (getUsage) and the usage page's daily charts (getDailyUsage) count alike, so
// the bars add up to the totals: the window [now − days, now] of one account in one region, and
// the estimated cost that counts.

const DAY_MS = 86_400_000;

export type UsageWindow = { accountId: string; region: RegionName; since: string; until: string };

export function usageWindow(accountId: string, days: number, region: RegionName, now: Date): UsageWindow {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`);
  return { accountId, region, since: new Date(now.getTime() - days * DAY_MS).toISOString(), until: now.toISOString() };
}

/** A row of the window: the account's, in the region, `column` (its time) inside [since, until]. */
export function inUsageWindow(period: UsageWindow, column: "created_at" | "started_at" = "created_at"): Prisma.Sql {
  const at = Prisma.raw(column);
  return Prisma.sql`account_id = ${period.accountId}::uuid AND region = ${period.region}::"Region"
         AND ${at} >= ${period.since}::timestamptz AND ${at} <= ${period.until}::timestamptz`;
}

/**
 * The generations' estimated cost in millicredits: what was charged or is still reserved. Failed
 * and canceled generations were refunded, so they cost nothing.
 */
export const generationCostMillis = Prisma.sql`(coalesce(sum(estimated_cost) FILTER (WHERE status IN ('pending', 'processing', 'succeeded')), 0) * 1000)::bigint`;

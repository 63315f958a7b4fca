import type { RegionName } from "../base/env";

// What GET /v1/usage (getUsage) and the usage page's daily charts (getDailyUsage) count alike, so
// the bars add up to the totals: the window [now − days, now] of one account in one region, and
// the estimated cost that counts.

const DAY_MS = 86_400_000;

export type UsageWindow = { accountId: string; region: RegionName; since: string; until: string };

export function usageWindow(accountId: string, days: number, region: RegionName, now: Date): UsageWindow {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`);
  return { accountId, region, since: new Date(now.getTime() - days * DAY_MS).toISOString(), until: now.toISOString() };
}

/**
 * The generation states whose estimated cost counts: what was charged or is still reserved
 * (in_flight is pending or processing). Failed and canceled generations were refunded.
 */
export const COSTING_STATES: ReadonlySet<string> = new Set(["in_flight", "succeeded"]);

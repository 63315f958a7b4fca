import "server-only";
import { formatCredits } from "../base/money";
import { getBalance } from "../ledger/get-balance";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { RegionName } from "../base/env";
import { attemptCounts, generationCounts, requestCounts, type AttemptCount, type RequestCount } from "./rollups/usage-counts";
import { usageBuckets } from "./rollups/usage-buckets";
import { COSTING_STATES, usageWindow } from "./usage-window";

// GET /v1/usage: what an account did in the last `days` days in one region (the one the request is
// served in), read from the usage counters (server/usage/rollups). Money is summed as NUMERIC and leaves SQL as integer
// millicredits, so no float ever accumulates. The balance is the account's: credits have no region.

export type UsageEndpoint = {
  endpoint: string;
  total_requests: number;
  success_count: number;
  client_error_count: number;
  server_error_count: number;
  /** Error code → number of responses that carried it. */
  error_codes: Record<string, number>;
};

export type UsageProvider = {
  provider: string;
  total_submissions: number;
  used_count: number;
  cancelled_count: number;
  discarded_count: number;
  failed_count: number;
  total_estimated_cost: number;
  wasted_estimated_cost: number;
};

export type UsageSummary = {
  account_id: string;
  usage_period_days: number;
  usage_credit_balance: number;
  usage_total_requests: number;
  usage_total_success: number;
  usage_total_client_errors: number;
  usage_total_server_errors: number;
  usage_total_generations: number;
  usage_total_provider_submissions: number;
  usage_total_estimated_cost: number;
  usage_endpoints: UsageEndpoint[];
  usage_providers: UsageProvider[];
};

export type UsageInput = { days: number; region: RegionName; now?: Date };

/** The window is [now − days, now] on request time, generation creation and attempt start, read from the usage counters. */
export async function getUsage(database: Db, scope: OneAccount, input: UsageInput): Promise<UsageSummary> {
  const { accountId } = scope;
  const { days, region, now = new Date() } = input;
  const period = usageWindow(accountId, days, region, now);
  const buckets = usageBuckets(new Date(period.since), new Date(period.until));
  const counters = { accountId, region };

  const [balanceMillis, requests, generations, attempts] = await Promise.all([
    getBalance(database, accountId),
    requestCounts(database, counters, buckets),
    generationCounts(database, counters, buckets),
    attemptCounts(database, counters, buckets),
  ]);

  const endpoints = endpointsOf(requests);
  const providers = providersOf(attempts);
  const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const costMillis = generations.filter((row) => COSTING_STATES.has(row.state)).reduce((total, row) => total + row.cost_millis, 0n);

  return {
    account_id: accountId,
    usage_period_days: days,
    usage_credit_balance: formatCredits(balanceMillis),
    usage_total_requests: sum(endpoints, (row) => row.total_requests),
    usage_total_success: sum(endpoints, (row) => row.success_count),
    usage_total_client_errors: sum(endpoints, (row) => row.client_error_count),
    usage_total_server_errors: sum(endpoints, (row) => row.server_error_count),
    usage_total_generations: sum(generations, (row) => row.generations),
    usage_total_provider_submissions: sum(providers, (row) => row.total_submissions),
    usage_total_estimated_cost: millisToCredits(costMillis),
    usage_endpoints: endpoints,
    usage_providers: providers,
  };
}

/** Per endpoint, most requested first; its error codes in code order. */
function endpointsOf(rows: RequestCount[]): UsageEndpoint[] {
  const byEndpoint = new Map<string, UsageEndpoint>();
  for (const row of [...rows].sort((a, b) => a.error_code.localeCompare(b.error_code))) {
    const entry = byEndpoint.get(row.endpoint) ?? {
      endpoint: row.endpoint,
      total_requests: 0,
      success_count: 0,
      client_error_count: 0,
      server_error_count: 0,
      error_codes: {},
    };
    entry.total_requests += row.requests;
    if (row.status_class === 2) entry.success_count += row.requests;
    if (row.status_class === 4) entry.client_error_count += row.requests;
    if (row.status_class === 5) entry.server_error_count += row.requests;
    if (row.error_code !== "") entry.error_codes[row.error_code] = (entry.error_codes[row.error_code] ?? 0) + row.requests;
    byEndpoint.set(row.endpoint, entry);
  }
  return [...byEndpoint.values()].sort((a, b) => b.total_requests - a.total_requests || compareText(a.endpoint, b.endpoint));
}

/** Per provider, most submitted first. */
function providersOf(rows: AttemptCount[]): UsageProvider[] {
  const byProvider = new Map<string, UsageProvider & { total: bigint; wasted: bigint }>();
  for (const row of rows) {
    const entry = byProvider.get(row.provider) ?? {
      provider: row.provider,
      total_submissions: 0,
      used_count: 0,
      cancelled_count: 0,
      discarded_count: 0,
      failed_count: 0,
      total_estimated_cost: 0,
      wasted_estimated_cost: 0,
      total: 0n,
      wasted: 0n,
    };
    entry.total_submissions += row.attempts;
    if (row.outcome === "succeeded") entry.used_count += row.attempts;
    if (row.outcome === "canceled") entry.cancelled_count += row.attempts;
    if (row.outcome === "discarded") entry.discarded_count += row.attempts;
    if (row.outcome === "failed") entry.failed_count += row.attempts;
    entry.total += row.cost_millis;
    if (row.wasted) entry.wasted += row.cost_millis;
    byProvider.set(row.provider, entry);
  }
  return [...byProvider.values()]
    .sort((a, b) => b.total_submissions - a.total_submissions || compareText(a.provider, b.provider))
    .map(({ total, wasted, ...counts }) => ({
      ...counts,
      total_estimated_cost: millisToCredits(total),
      wasted_estimated_cost: millisToCredits(wasted),
    }));
}

/** PostgreSQL's ORDER BY on text in the C collation, as the raw queries ordered before. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function millisToCredits(millis: bigint): number {
  return formatCredits(Number(millis));
}

import "server-only";
import { formatCredits } from "../base/money";
import { getBalance } from "../ledger/get-balance";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { RegionName } from "../base/env";
import { generationCostMillis, inUsageWindow, usageWindow } from "./usage-window";

// GET /v1/usage: what an account did in the last `days` days in one region (the one the request is
// served in), counted by PostgreSQL. Money is summed as NUMERIC and leaves SQL as integer
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

type EndpointRow = Omit<UsageEndpoint, "error_codes">;
type ErrorCodeRow = { endpoint: string; error_code: string; count: number };
type GenerationRow = { total: number; cost_millis: bigint };
type ProviderRow = Omit<UsageProvider, "total_estimated_cost" | "wasted_estimated_cost"> & {
  total_cost_millis: bigint;
  wasted_cost_millis: bigint;
};

export type UsageInput = { days: number; region: RegionName; now?: Date };

/** The window is [now − days, now] on request time, generation creation and attempt start. */
export async function getUsage(database: Db, scope: OneAccount, input: UsageInput): Promise<UsageSummary> {
  const { accountId } = scope;
  const { days, region, now = new Date() } = input;
  const period = usageWindow(accountId, days, region, now);

  const [balanceMillis, endpointRows, errorCodeRows, generationRows, providerRows] = await Promise.all([
    getBalance(database, accountId),
    database.$queryRaw<EndpointRow[]>`
      SELECT endpoint,
             count(*)::int                                                 AS total_requests,
             count(*) FILTER (WHERE status_code BETWEEN 200 AND 299)::int AS success_count,
             count(*) FILTER (WHERE status_code BETWEEN 400 AND 499)::int AS client_error_count,
             count(*) FILTER (WHERE status_code BETWEEN 500 AND 599)::int AS server_error_count
        FROM request_log
       WHERE ${inUsageWindow(period)}
       GROUP BY endpoint
       ORDER BY total_requests DESC, endpoint`,
    database.$queryRaw<ErrorCodeRow[]>`
      SELECT endpoint, error_code, count(*)::int AS count
        FROM request_log
       WHERE ${inUsageWindow(period)}
         AND error_code IS NOT NULL
       GROUP BY endpoint, error_code
       ORDER BY error_code`,
    database.$queryRaw<GenerationRow[]>`
      SELECT count(*)::int AS total,
             ${generationCostMillis} AS cost_millis
        FROM generation
       WHERE ${inUsageWindow(period)}`,
    database.$queryRaw<ProviderRow[]>`
      SELECT provider,
             count(*)::int                                          AS total_submissions,
             count(*) FILTER (WHERE outcome = 'succeeded')::int     AS used_count,
             count(*) FILTER (WHERE outcome = 'canceled')::int      AS cancelled_count,
             count(*) FILTER (WHERE outcome = 'discarded')::int     AS discarded_count,
             count(*) FILTER (WHERE outcome = 'failed')::int        AS failed_count,
             (coalesce(sum(estimated_cost), 0) * 1000)::bigint                      AS total_cost_millis,
             (coalesce(sum(estimated_cost) FILTER (WHERE wasted), 0) * 1000)::bigint AS wasted_cost_millis
        FROM provider_attempt
       WHERE ${inUsageWindow(period, "started_at")}
       GROUP BY provider
       ORDER BY total_submissions DESC, provider`,
  ]);

  const errorCodesByEndpoint = new Map<string, Record<string, number>>();
  for (const row of errorCodeRows) {
    const codes = errorCodesByEndpoint.get(row.endpoint) ?? {};
    codes[row.error_code] = row.count;
    errorCodesByEndpoint.set(row.endpoint, codes);
  }
  const endpoints = endpointRows.map((row): UsageEndpoint => ({ ...row, error_codes: errorCodesByEndpoint.get(row.endpoint) ?? {} }));
  const providers = providerRows.map(({ total_cost_millis, wasted_cost_millis, ...counts }): UsageProvider => ({
    ...counts,
    total_estimated_cost: millisToCredits(total_cost_millis),
    wasted_estimated_cost: millisToCredits(wasted_cost_millis),
  }));
  const generations = generationRows[0] ?? { total: 0, cost_millis: 0n };
  const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((total, row) => total + pick(row), 0);

  return {
    account_id: accountId,
    usage_period_days: days,
    usage_credit_balance: formatCredits(balanceMillis),
    usage_total_requests: sum(endpoints, (row) => row.total_requests),
    usage_total_success: sum(endpoints, (row) => row.success_count),
    usage_total_client_errors: sum(endpoints, (row) => row.client_error_count),
    usage_total_server_errors: sum(endpoints, (row) => row.server_error_count),
    usage_total_generations: generations.total,
    usage_total_provider_submissions: sum(providers, (row) => row.total_submissions),
    usage_total_estimated_cost: millisToCredits(generations.cost_millis),
    usage_endpoints: endpoints,
    usage_providers: providers,
  };
}

function millisToCredits(millis: bigint): number {
  return formatCredits(Number(millis));
}

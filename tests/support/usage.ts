import type { UsageSummary } from "@/server/usage/get-usage";

/** The usage summary of an account that did nothing in the window. */
export function emptyUsage(accountId: string, days: number, balance: number): UsageSummary {
  return {
    account_id: accountId,
    usage_period_days: days,
    usage_credit_balance: balance,
    usage_total_requests: 0,
    usage_total_success: 0,
    usage_total_client_errors: 0,
    usage_total_server_errors: 0,
    usage_total_generations: 0,
    usage_total_provider_submissions: 0,
    usage_total_estimated_cost: 0,
    usage_endpoints: [],
    usage_providers: [],
  };
}

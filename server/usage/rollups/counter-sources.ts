import type { CounterSource } from "./rollup-parts";

// What each source's triggers count (prisma/migrations/20261204000000_usage_rollups): the same
// expressions over a raw row, so the edges add up with the counters.

export const requestCounters: CounterSource = {
  table: "request_usage",
  changes: "request_usage_change",
  columns: "api_key_id, endpoint, status_class, error_code, requests",
  // The request counters keep no key (prisma/migrations/20261204040000_request_usage_compact_log).
  rawColumns: "darkroom_usage_key(NULL), endpoint, (status_code / 100)::smallint, coalesce(error_code, ''), 1::bigint",
  raw: "request_log",
  rawBetween: "request_log_between",
  rawTime: "created_at",
};

export const generationCounters: CounterSource = {
  table: "generation_usage",
  changes: "generation_usage_change",
  columns: "api_key_id, model, provider, state, generations, cost_millis",
  rawColumns:
    "darkroom_usage_key(api_key_id), model_identifier, coalesce(provider_used, ''), darkroom_usage_state(status), 1::bigint, (estimated_cost * 1000)::bigint",
  raw: "generation",
  rawTime: "created_at",
};

export const attemptCounters: CounterSource = {
  table: "attempt_usage",
  changes: "attempt_usage_change",
  columns: "provider, outcome, wasted, attempts, cost_millis",
  rawColumns: "provider, outcome::text, wasted, 1::bigint, (estimated_cost * 1000)::bigint",
  raw: "provider_attempt",
  rawTime: "started_at",
};

/** Credit movements have no region: read with region null. */
export const ledgerCounters: CounterSource = {
  table: "ledger_usage",
  changes: "ledger_usage_change",
  columns: "type, entries, amount_millis",
  rawColumns: "type, 1::bigint, (amount * 1000)::bigint",
  raw: "ledger_entry",
  rawTime: "created_at",
};

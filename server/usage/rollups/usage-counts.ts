import "server-only";
import { Prisma } from "../../base/generated/prisma/client";
import type { Db } from "../../base/db";
import { attemptCounters, generationCounters, ledgerCounters, requestCounters } from "./counter-sources";
import { rollupParts } from "./rollup-parts";
import type { UsageBuckets } from "./usage-buckets";

// The counters of one account over a window, per UTC day: what GET /v1/usage, the usage page and
// the overview read. Each is one statement whose cost follows the window, not the history.

export type CounterScope = { accountId: string; region: string | null };

export type RequestCount = { day: string; endpoint: string; status_class: number; error_code: string; requests: number };
export type GenerationCount = { day: string; state: string; generations: number; cost_millis: bigint };
export type LedgerCount = { day: string; type: string; entries: number; amount_millis: bigint };
export type AttemptCount = { provider: string; outcome: string; wasted: boolean; attempts: number; cost_millis: bigint };

const day = Prisma.sql`to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

export function requestCounts(db: Db, scope: CounterScope, buckets: UsageBuckets): Promise<RequestCount[]> {
  return db.$queryRaw<RequestCount[]>`
    SELECT ${day} AS day, endpoint, status_class::int AS status_class, error_code, sum(requests)::int AS requests
      FROM (${rollupParts(requestCounters, scope, buckets)}) AS parts(at, api_key_id, endpoint, status_class, error_code, requests)
     GROUP BY 1, 2, 3, 4
    HAVING sum(requests) <> 0`;
}

export function generationCounts(db: Db, scope: CounterScope, buckets: UsageBuckets): Promise<GenerationCount[]> {
  return db.$queryRaw<GenerationCount[]>`
    SELECT ${day} AS day, state, sum(generations)::int AS generations, sum(cost_millis)::bigint AS cost_millis
      FROM (${rollupParts(generationCounters, scope, buckets)}) AS parts(at, api_key_id, model, provider, state, generations, cost_millis)
     GROUP BY 1, 2
    HAVING sum(generations) <> 0 OR sum(cost_millis) <> 0`;
}

export function attemptCounts(db: Db, scope: CounterScope, buckets: UsageBuckets): Promise<AttemptCount[]> {
  return db.$queryRaw<AttemptCount[]>`
    SELECT provider, outcome, wasted, sum(attempts)::int AS attempts, sum(cost_millis)::bigint AS cost_millis
      FROM (${rollupParts(attemptCounters, scope, buckets)}) AS parts(at, provider, outcome, wasted, attempts, cost_millis)
     GROUP BY 1, 2, 3
    HAVING sum(attempts) <> 0 OR sum(cost_millis) <> 0`;
}

/** Credit movements per day and type (the ledger has no region). */
export function ledgerCounts(db: Db, accountId: string, buckets: UsageBuckets): Promise<LedgerCount[]> {
  return db.$queryRaw<LedgerCount[]>`
    SELECT ${day} AS day, type::text AS type, sum(entries)::int AS entries, sum(amount_millis)::bigint AS amount_millis
      FROM (${rollupParts(ledgerCounters, { accountId, region: null }, buckets)}) AS parts(at, type, entries, amount_millis)
     GROUP BY 1, 2
    HAVING sum(entries) <> 0 OR sum(amount_millis) <> 0`;
}

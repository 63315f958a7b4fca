import "server-only";
import type { ProviderId } from "../catalog/index";
import { db as defaultDb, type Db } from "../base/db";
import { Prisma } from "../base/generated/prisma/client";
import type { RegionName } from "../base/env";
import type { ProviderStats } from "./rank-providers";

// The evidence `fastest` ranks on: each provider's attempts for one (region, model) that finished
// in a rolling window, read in one query from the service's own attempt records. Health reads
// the same evidence for one region over every model (leave the model out).

export const ROUTING_WINDOW_SECONDS = 900;
// Bounds the scan on started_at, the last column of the (region, model_identifier, provider,
// started_at) index: no attempt outlives this, since the sweeper fails generations past their
// model's timeout (at most 900 s).
export const LONGEST_ATTEMPT_SECONDS = 3_600;

export type LoadProviderStatsInput = {
  region: RegionName;
  /** Omitted: every model. */
  modelIdentifier?: string;
  providers: readonly ProviderId[];
  now?: Date;
  windowSeconds?: number;
  db?: Db;
};

type StatsRow = {
  provider: ProviderId;
  attempts: number;
  successes: number;
  failures: number;
  wasted: number;
  p95_latency_ms: number | null;
  consecutive_failures: number;
  last_failure_at: Date | null;
  last_success_at: Date | null;
};

/** Providers without a finished attempt in the window are absent from the map: no data. */
export async function loadProviderStats(input: LoadProviderStatsInput): Promise<Map<ProviderId, ProviderStats>> {
  const { region, modelIdentifier, providers, now = new Date(), windowSeconds = ROUTING_WINDOW_SECONDS, db = defaultDb } = input;
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new RangeError(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  if (providers.length === 0) return new Map();
  const since = new Date(now.getTime() - windowSeconds * 1000);
  const earliestStart = new Date(since.getTime() - LONGEST_ATTEMPT_SECONDS * 1000);
  const ofModel = modelIdentifier === undefined ? Prisma.empty : Prisma.sql`AND model_identifier = ${modelIdentifier}`;

  // successes_since counts, newest first, the successes at or after each attempt: the failures
  // still at zero are the current run of consecutive failures.
  const rows = await db.$queryRaw<StatsRow[]>`
    WITH finished AS (
      SELECT provider, outcome, wasted, latency_ms, finished_at,
             count(*) FILTER (WHERE outcome = 'succeeded')
               OVER (PARTITION BY provider ORDER BY finished_at DESC, started_at DESC, id DESC
                     ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS successes_since
        FROM provider_attempt
       WHERE provider = ANY(${[...providers]}::text[])
         AND region = ${region}::"Region"
         ${ofModel}
         AND started_at >= ${earliestStart.toISOString()}::timestamptz
         AND started_at <= ${now.toISOString()}::timestamptz
         AND finished_at >= ${since.toISOString()}::timestamptz
         AND finished_at <= ${now.toISOString()}::timestamptz
         AND outcome <> 'running'
    )
    SELECT provider,
           count(*)::int                                                            AS attempts,
           count(*) FILTER (WHERE outcome = 'succeeded')::int                       AS successes,
           count(*) FILTER (WHERE outcome = 'failed')::int                          AS failures,
           count(*) FILTER (WHERE wasted)::int                                      AS wasted,
           round(percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)
                 FILTER (WHERE outcome = 'succeeded'))::int                          AS p95_latency_ms,
           count(*) FILTER (WHERE outcome = 'failed' AND successes_since = 0)::int  AS consecutive_failures,
           max(finished_at) FILTER (WHERE outcome = 'failed')                       AS last_failure_at,
           max(finished_at) FILTER (WHERE outcome = 'succeeded')                    AS last_success_at
      FROM finished
     GROUP BY provider`;

  return new Map(
    rows.map((row): [ProviderId, ProviderStats] => [
      row.provider,
      {
        attempts: row.attempts,
        successes: row.successes,
        failures: row.failures,
        wasted: row.wasted,
        p95LatencyMs: row.p95_latency_ms,
        consecutiveFailures: row.consecutive_failures,
        lastFailureAt: row.last_failure_at,
        lastSuccessAt: row.last_success_at,
      },
    ]),
  );
}

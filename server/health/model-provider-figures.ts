import "server-only";
import type { ProviderId } from "../catalog/index";
import type { Db } from "../base/db";
import type { RegionName } from "../base/env";
import { LONGEST_ATTEMPT_SECONDS } from "../routing/provider-stats";

// Per (model, provider): the attempts that finished in the health window in one region, read in
// one grouped query (the (provider, started_at) index bounds the scan, as for provider health).

export type ModelProviderFigures = {
  /** Finished attempts of any outcome: succeeded, failed, canceled, discarded. */
  attempts: number;
  succeeded: number;
  failed: number;
  /** Median latency of the succeeded attempts; null without one. */
  p50LatencyMs: number | null;
  /** The newest failed attempt's error code and when it finished; null without a failure. */
  lastErrorCode: string | null;
  lastErrorAt: Date | null;
};

export const NO_FIGURES: Readonly<ModelProviderFigures> = {
  attempts: 0,
  succeeded: 0,
  failed: 0,
  p50LatencyMs: null,
  lastErrorCode: null,
  lastErrorAt: null,
};

type FiguresRow = {
  model_identifier: string;
  provider: string;
  attempts: number;
  succeeded: number;
  failed: number;
  p50_latency_ms: number | null;
  last_error_code: string | null;
  last_error_at: Date | null;
};

export type LoadModelProviderFiguresInput = {
  region: RegionName;
  providers: readonly ProviderId[];
  now: Date;
  windowSeconds: number;
  db: Db;
};

/** Keyed `${model_identifier} ${provider}`; pairs without a finished attempt in the window are absent. */
export async function loadModelProviderFigures(input: LoadModelProviderFiguresInput): Promise<Map<string, ModelProviderFigures>> {
  const { region, providers, now, windowSeconds, db } = input;
  if (providers.length === 0) return new Map();
  const since = new Date(now.getTime() - windowSeconds * 1000);
  const earliestStart = new Date(since.getTime() - LONGEST_ATTEMPT_SECONDS * 1000);
  const rows = await db.$queryRaw<FiguresRow[]>`
    SELECT model_identifier, provider,
           count(*)::int                                                                   AS attempts,
           count(*) FILTER (WHERE outcome = 'succeeded')::int                              AS succeeded,
           count(*) FILTER (WHERE outcome = 'failed')::int                                 AS failed,
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms)
                 FILTER (WHERE outcome = 'succeeded'))::int                                 AS p50_latency_ms,
           (array_agg(error_code ORDER BY finished_at DESC, started_at DESC, id DESC)
              FILTER (WHERE outcome = 'failed'))[1]                                         AS last_error_code,
           max(finished_at) FILTER (WHERE outcome = 'failed')                              AS last_error_at
      FROM provider_attempt
     WHERE provider = ANY(${[...providers]}::text[])
       AND region = ${region}::"Region"
       AND started_at >= ${earliestStart.toISOString()}::timestamptz
       AND started_at <= ${now.toISOString()}::timestamptz
       AND finished_at >= ${since.toISOString()}::timestamptz
       AND finished_at <= ${now.toISOString()}::timestamptz
       AND outcome <> 'running'
     GROUP BY model_identifier, provider`;
  return new Map(
    rows.map((row): [string, ModelProviderFigures] => [
      figuresKey(row.model_identifier, row.provider),
      {
        attempts: row.attempts,
        succeeded: row.succeeded,
        failed: row.failed,
        p50LatencyMs: row.p50_latency_ms,
        lastErrorCode: row.last_error_code,
        lastErrorAt: row.last_error_at,
      },
    ]),
  );
}

export function figuresKey(modelIdentifier: string, provider: string): string {
  return `${modelIdentifier} ${provider}`;
}

import "server-only";
import { findModel } from "../catalog";
import type { Db } from "../base/db";

// Retry-After for a concurrency refusal (ERR1009): when the account's first in-flight generation
// of that media kind is likely to finish and free its slot. Each one is expected to take its
// model's typical run time (the median total time of that model's recent successful runs); with
// no such runs, its timeout, when the sweeper frees the slot at the latest.

/** Recent successful runs per model that the typical time is the median of. */
const TYPICAL_SAMPLE = 200;
const TYPICAL_LOOKBACK_MS = 24 * 60 * 60 * 1000;

export type InFlightGeneration = { modelIdentifier: string; createdAt: Date };

/**
 * Whole seconds, at least 1. A run already past its typical time is expected to need up to one
 * more typical run, never beyond its model's timeout.
 */
export function estimateRetryAfterSeconds(
  inFlight: readonly InFlightGeneration[],
  typicalSeconds: ReadonlyMap<string, number>,
  now: Date,
): number {
  let soonest = Infinity;
  for (const generation of inFlight) {
    const timeout = findModel(generation.modelIdentifier)?.timeoutSeconds ?? null;
    const typical = typicalSeconds.get(generation.modelIdentifier) ?? timeout;
    if (typical === null) continue;
    const elapsed = Math.max(0, (now.getTime() - generation.createdAt.getTime()) / 1000);
    const untilTimeout = timeout === null ? Infinity : Math.max(0, timeout - elapsed);
    const remaining = typical > elapsed ? typical - elapsed : Math.min(typical, untilTimeout);
    soonest = Math.min(soonest, remaining);
  }
  return Number.isFinite(soonest) ? Math.max(1, Math.ceil(soonest)) : 1;
}

/** The median total time, in seconds, of each model's successful generations of the day before `now`. */
export async function typicalRunSeconds(database: Db, modelIdentifiers: readonly string[], now: Date): Promise<Map<string, number>> {
  if (modelIdentifiers.length === 0) return new Map();
  const since = new Date(now.getTime() - TYPICAL_LOOKBACK_MS);
  const rows = await database.$queryRaw<Array<{ model_identifier: string; typical: number | null }>>`
    SELECT m.model_identifier,
           (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY recent.total)
              FROM (SELECT metrics_total_time AS total
                      FROM generation
                     WHERE status = 'succeeded'
                       AND model_identifier = m.model_identifier
                       AND created_at >= ${since.toISOString()}::timestamptz
                       AND created_at <= ${now.toISOString()}::timestamptz
                       AND metrics_total_time IS NOT NULL
                     ORDER BY created_at DESC
                     LIMIT ${TYPICAL_SAMPLE}) AS recent) AS typical
      FROM unnest(${[...new Set(modelIdentifiers)]}::text[]) AS m(model_identifier)`;
  return new Map(rows.flatMap((row) => (row.typical === null ? [] : [[row.model_identifier, Number(row.typical)] as [string, number]])));
}

/** For the refusal itself: the account's in-flight generations of the kind, and their models' typical times. */
export async function concurrencyRetryAfter(
  database: Db,
  accountId: string,
  mediaKind: "image" | "video",
  now = new Date(),
): Promise<number> {
  const inFlight = await database.generation.findMany({
    where: { accountId, mediaKind, status: { in: ["pending", "processing"] } },
    select: { modelIdentifier: true, createdAt: true },
  });
  const typical = await typicalRunSeconds(
    database,
    inFlight.map((generation) => generation.modelIdentifier),
    now,
  );
  return estimateRetryAfterSeconds(inFlight, typical, now);
}

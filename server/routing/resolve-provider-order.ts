import "server-only";
import type { ModelDefinition, ProviderId } from "../catalog/index";
import { db as defaultDb, type Db } from "../db";
import type { RegionName } from "../env";
import { log } from "../runtime/log";
import { loadProviderStats } from "./provider-stats";
import { rankProviders, type ProviderStats } from "./rank-providers";

// The provider chain a new generation is tried in: an explicit list as given; `fastest` ranked
// from recent attempts in this region, or the catalog order when the evidence cannot be read.

export type ProviderOrderRequest = { mode: "fastest" } | { mode: "explicit"; providers: readonly ProviderId[] };

export type ResolveProviderOrderInput = {
  model: Pick<ModelDefinition, "identifier" | "providers">;
  region: RegionName;
  requested: ProviderOrderRequest;
  now?: Date;
  db?: Db;
};

/** Under load many creates share one stats query; a ranking 2 s stale is still recent. */
export const STATS_CACHE_MS = 2_000;

type CachedStats = { loadedAt: number; stats: Promise<Map<ProviderId, ProviderStats>> };
// Per client, so a caller's own client (a test database, a transaction) never sees another's rows.
const statsCache = new WeakMap<Db, Map<string, CachedStats>>();
const MAX_CACHED_MODELS = 500;

export async function resolveProviderOrder(input: ResolveProviderOrderInput): Promise<ProviderId[]> {
  const { model, region, requested, now = new Date(), db = defaultDb } = input;
  if (requested.mode === "explicit") return [...requested.providers];
  if (model.providers.length === 1) return [...model.providers];

  try {
    const stats = await cachedProviderStats(db, region, model, now);
    const { order, reasons } = rankProviders(model.providers, stats, { now });
    log.debug("provider order ranked", { region, model_identifier: model.identifier, order, reasons });
    return order;
  } catch (error) {
    log.warn("provider ranking failed, using catalog order", {
      region,
      model_identifier: model.identifier,
      error: error instanceof Error ? error.message : String(error),
    });
    return [...model.providers];
  }
}

function cachedProviderStats(db: Db, region: RegionName, model: ResolveProviderOrderInput["model"], now: Date): Promise<Map<ProviderId, ProviderStats>> {
  let byModel = statsCache.get(db);
  if (!byModel) statsCache.set(db, (byModel = new Map()));
  const key = `${region} ${model.identifier}`;
  const cached = byModel.get(key);
  // Judged on the caller's clock, so a `now` in the past never reuses today's numbers.
  const age = cached ? now.getTime() - cached.loadedAt : Infinity;
  if (cached && age >= 0 && age < STATS_CACHE_MS) return cached.stats;

  if (byModel.size >= MAX_CACHED_MODELS) byModel.clear();
  const entry: CachedStats = {
    loadedAt: now.getTime(),
    stats: loadProviderStats({ region, modelIdentifier: model.identifier, providers: model.providers, now, db }),
  };
  byModel.set(key, entry);
  // A failed load is not remembered: the next create tries the database again.
  entry.stats.catch(() => {
    if (byModel.get(key) === entry) byModel.delete(key);
  });
  return entry.stats;
}

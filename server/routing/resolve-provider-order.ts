import "server-only";
import type { ModelDefinition, ProviderId } from "../catalog/index";
import { db as defaultDb, type Db } from "../base/db";
import { env, type RegionName } from "../base/env";
import { log } from "../base/log";
import { exploreProviders, ROUTING_EXPLORATION_SHARE, type ExploredOrder } from "./explore-providers";
import { loadProviderStats } from "./provider-stats";
import { rankProviders, type ProviderStats } from "./rank-providers";

// The provider chain a new generation is tried in: an explicit list as given; `fastest` ranked
// from recent attempts in this region, or the catalog order when the evidence cannot be read; a
// small share of `fastest` generations explore the second-ranked provider first
// (explore-providers.ts).

export type ProviderOrderRequest = { mode: "fastest" } | { mode: "explicit"; providers: readonly ProviderId[] };

export type ResolveProviderOrderInput = {
  model: Pick<ModelDefinition, "identifier" | "providers">;
  region: RegionName;
  requested: ProviderOrderRequest;
  /** Decides, with the share, whether this generation explores. */
  generationId: string;
  /** Omitted: ROUTING_EXPLORATION_SHARE from the env, else the constant. */
  explorationShare?: number;
  now?: Date;
  db?: Db;
};

/** Under load many creates share one stats query; a ranking 2 s stale is still recent. */
export const STATS_CACHE_MS = 2_000;

type CachedStats = { loadedAt: number; stats: Promise<Map<ProviderId, ProviderStats>> };
// Per client, so a caller's own client (a test database, a transaction) never sees another's rows.
const statsCache = new WeakMap<Db, Map<string, CachedStats>>();
const MAX_CACHED_MODELS = 500;

export async function resolveProviderOrder(input: ResolveProviderOrderInput): Promise<ExploredOrder> {
  const { model, region, requested, generationId, now = new Date(), db = defaultDb } = input;
  if (requested.mode === "explicit") return { order: [...requested.providers], explored: false };
  if (model.providers.length === 1) return { order: [...model.providers], explored: false };
  const share = input.explorationShare ?? env().ROUTING_EXPLORATION_SHARE ?? ROUTING_EXPLORATION_SHARE;

  try {
    const stats = await cachedProviderStats(db, region, model, now);
    const ranking = rankProviders(model.providers, stats, { now });
    const chosen = exploreProviders(ranking, generationId, share);
    log.debug("provider order ranked", {
      region,
      model_identifier: model.identifier,
      generation_id: generationId,
      order: chosen.order,
      explored: chosen.explored,
      reasons: ranking.reasons,
    });
    return chosen;
  } catch (error) {
    log.warn("provider ranking failed, using catalog order", {
      region,
      model_identifier: model.identifier,
      error: error instanceof Error ? error.message : String(error),
    });
    return { order: [...model.providers], explored: false };
  }
}

function cachedProviderStats(
  db: Db,
  region: RegionName,
  model: ResolveProviderOrderInput["model"],
  now: Date,
): Promise<Map<ProviderId, ProviderStats>> {
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

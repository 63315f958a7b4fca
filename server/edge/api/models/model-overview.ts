import "server-only";
import { listProviders, type ProviderId } from "../../../catalog/index";
import { disabledCatalog } from "../../../catalog/disabled-catalog";
import { exampleOf, type ModelExample } from "../../../catalog/examples/model-example";
import type { Db } from "../../../base/db";
import type { RegionName } from "../../../base/env";
import { typicalRunSeconds } from "../../../generations/concurrency-retry-after";
import { getModelAndProviderHealth, type ModelsHealth } from "../../../health/model-health";
import type { ProviderHealthStatus, ProvidersHealth } from "../../../health/provider-health";
import type { LibraryModelEntry } from "../../http/handlers/library-shapes";
import { configuredProviders } from "../../../providers/configured-providers";

// A library entry as the dashboard shows it: with each provider's health (the provider's status
// over all its models, and this model's own attempts on it) and the model's typical run time.

export type ModelProviderHealth = {
  provider: ProviderId;
  provider_name: string;
  status: ProviderHealthStatus;
  status_reason: string;
  /** This model can be routed to this provider now (model health's `available`). */
  available: boolean;
  /** This model's finished attempts on this provider in the health window. */
  attempts: number;
  success_rate: number | null;
  p50_latency_ms: number | null;
};

export type ModelOverview = {
  entry: LibraryModelEntry;
  /** Median total time of the model's recent successful runs, in seconds; null without one. */
  typical_run_seconds: number | null;
  providers: ModelProviderHealth[];
  /** Its family's example output (public/examples), with the model and provider that rendered it. */
  example: ModelExample | null;
};

export type ModelEvidence = {
  health: { models: ModelsHealth; providers: ProvidersHealth };
  /** model identifier → typical run seconds. */
  typicalSeconds: ReadonlyMap<string, number>;
};

export type ModelReadContext = { region: RegionName; now: Date; database: Db };

export async function loadModelEvidence(identifiers: readonly string[], context: ModelReadContext): Promise<ModelEvidence> {
  const { region, now, database } = context;
  const [health, typicalSeconds] = await Promise.all([
    getModelAndProviderHealth({ region, now, database, configuredProviders: configuredProviders(), disabled: disabledCatalog() }),
    typicalRunSeconds(database, identifiers, now),
  ]);
  return { health, typicalSeconds };
}

const providerNames = new Map<string, string>(listProviders().map((provider) => [provider.id, provider.name]));

export function overviewOf(entry: LibraryModelEntry, evidence: ModelEvidence): ModelOverview {
  const modelHealth = evidence.health.models.models.find((model) => model.model_identifier === entry.model_identifier);
  const providers = entry.model_supported_provider.map((provider): ModelProviderHealth => {
    const judged = evidence.health.providers.providers.find((item) => item.provider === provider);
    const figures = modelHealth?.providers[provider];
    return {
      provider,
      provider_name: providerNames.get(provider) ?? provider,
      status: judged?.status ?? "unknown",
      status_reason: judged?.status_reason ?? "not in the provider health report",
      available: figures?.available ?? false,
      attempts: figures?.attempts ?? 0,
      success_rate: figures?.success_rate ?? null,
      p50_latency_ms: figures?.p50_latency_ms ?? null,
    };
  });
  const typical = evidence.typicalSeconds.get(entry.model_identifier);
  return {
    entry,
    typical_run_seconds: typical === undefined ? null : Math.round(typical * 10) / 10,
    providers,
    example: exampleOf(entry.model_identifier),
  };
}

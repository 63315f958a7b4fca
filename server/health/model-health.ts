import "server-only";
import { listModels, listProviders } from "../catalog/index";
import { NOTHING_DISABLED, type DisabledCatalog } from "../catalog/disabled-catalog";
import { modelStatus, type ModelStatus } from "../catalog/model-status";
import type { ModelType } from "../catalog/models";
import { db } from "../base/db";
import { formatCredits } from "../base/money";
import { listPriceMillis } from "../catalog/pricing";
import { figuresKey, loadModelProviderFigures, NO_FIGURES, type ModelProviderFigures } from "./model-provider-figures";
import {
  getProviderHealth,
  isConfigured,
  PROVIDER_HEALTH_WINDOW_SECONDS,
  type ProviderHealthOptions,
  type ProvidersHealth,
} from "./provider-health";

// GET /v1/health/inference/models: per model, which of its providers can take work now (the
// provider's `available` from provider health: configured, not turned off, and not failing
// nearly every attempt), with that model's own attempts on each provider in the same window.

export type ModelProviderAvailability = {
  available: boolean;
  raw_model_id: string | null;
  attempts: number;
  succeeded: number;
  failed: number;
  /** succeeded / attempts, 3 decimals; null without attempts. */
  success_rate: number | null;
  p50_latency_ms: number | null;
  last_error_code: string | null;
  last_error_at: string | null;
};

export type ModelHealthEntry = {
  model_type: ModelType;
  model_identifier: string;
  model_pricing: number;
  model_status: ModelStatus;
  providers: Record<string, ModelProviderAvailability>;
};

export type ModelsHealth = {
  service: "models";
  /** Every model with a configured, enabled provider has an available one; unconfigured or turned off is not an outage. */
  healthy: boolean;
  models_total: number;
  models: ModelHealthEntry[];
};

export type ModelHealthOptions = Omit<ProviderHealthOptions, "disabledProviders"> & {
  /** What the operator turned off; nothing when omitted. */
  disabled?: DisabledCatalog;
};

export async function getModelHealth(options: ModelHealthOptions): Promise<ModelsHealth> {
  return (await getModelAndProviderHealth(options)).models;
}

/** Both reports from one read of the window: the dashboard's Models page shows each provider's status beside its per-model figures. */
export async function getModelAndProviderHealth(
  options: ModelHealthOptions,
): Promise<{ models: ModelsHealth; providers: ProvidersHealth }> {
  const { disabled = NOTHING_DISABLED, now = new Date(), windowSeconds = PROVIDER_HEALTH_WINDOW_SECONDS, database = db } = options;
  const common = { ...options, now, windowSeconds, database };
  const [providersHealth, figures] = await Promise.all([
    getProviderHealth({ ...common, disabledProviders: disabled.providers }),
    loadModelProviderFigures({ region: options.region, providers: providersOf(), now, windowSeconds, db: database }),
  ]);
  // Built-in providers need no credentials: configured whether or not the set names them.
  const configured = new Set(
    listProviders()
      .filter((provider) => isConfigured(provider, options.configuredProviders))
      .map((provider) => provider.id as string),
  );
  return { models: shapeModelHealth(providersHealth, { configured, disabled, figures }), providers: providersHealth };
}

export type ModelHealthEvidence = {
  configured: ReadonlySet<string>;
  disabled: DisabledCatalog;
  /** loadModelProviderFigures' map; a missing pair had no finished attempt in the window. */
  figures: ReadonlyMap<string, ModelProviderFigures>;
};

export function shapeModelHealth(providersHealth: ProvidersHealth, evidence: ModelHealthEvidence): ModelsHealth {
  const byId = new Map(providersHealth.providers.map((entry) => [entry.provider as string, entry]));
  let healthy = true;
  const models = listModels().map((model): ModelHealthEntry => {
    const status = modelStatus(model, evidence.configured, evidence.disabled);
    const providers: Record<string, ModelProviderAvailability> = {};
    let anyConfigured = false;
    let anyAvailable = false;
    for (const id of model.providers) {
      const entry = byId.get(id);
      const available = entry?.available ?? false;
      // "unknown" is not configured or turned off: neither counts toward an outage.
      anyConfigured ||= entry !== undefined && entry.status !== "unknown";
      anyAvailable ||= available;
      providers[id] = {
        available,
        raw_model_id: model.providerModelIds[id] ?? null,
        ...shapeFigures(evidence.figures.get(figuresKey(model.identifier, id)) ?? NO_FIGURES),
      };
    }
    if (status !== "disabled" && anyConfigured && !anyAvailable) healthy = false;
    return {
      model_type: model.type,
      model_identifier: model.identifier,
      model_pricing: formatCredits(listPriceMillis(model)),
      model_status: status,
      providers,
    };
  });
  return { service: "models", healthy, models_total: models.length, models };
}

function shapeFigures(figures: ModelProviderFigures): Omit<ModelProviderAvailability, "available" | "raw_model_id"> {
  return {
    attempts: figures.attempts,
    succeeded: figures.succeeded,
    failed: figures.failed,
    success_rate: figures.attempts === 0 ? null : Math.round((figures.succeeded / figures.attempts) * 1000) / 1000,
    p50_latency_ms: figures.p50LatencyMs,
    last_error_code: figures.lastErrorCode,
    last_error_at: figures.lastErrorAt?.toISOString() ?? null,
  };
}

function providersOf() {
  return [...new Set(listModels().flatMap((model) => model.providers))];
}

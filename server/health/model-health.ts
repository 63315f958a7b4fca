import "server-only";
import { listModels } from "../catalog/index";
import type { ModelType } from "../catalog/models";
import { formatCredits } from "../money";
import { listPriceMillis } from "../catalog/pricing";
import { getProviderHealth, type ProviderHealthOptions, type ProvidersHealth } from "./provider-health";

// GET /v1/health/inference/models: per model, which of its providers can take
// work now: the provider's `available` from provider health (configured and not failing nearly
// every attempt).

export type ModelProviderAvailability = { available: boolean; raw_model_id: string | null };

export type ModelHealthEntry = {
  model_type: ModelType;
  model_identifier: string;
  model_pricing: number;
  providers: Record<string, ModelProviderAvailability>;
};

export type ModelsHealth = {
  service: "models";
  /** Every model with a configured provider has an available one; unconfigured is not an outage. */
  healthy: boolean;
  models_total: number;
  models: ModelHealthEntry[];
};

export async function getModelHealth(options: ProviderHealthOptions): Promise<ModelsHealth> {
  return shapeModelHealth(await getProviderHealth(options));
}

export function shapeModelHealth(providersHealth: ProvidersHealth): ModelsHealth {
  const byId = new Map(providersHealth.providers.map((entry) => [entry.provider as string, entry]));
  let healthy = true;
  const models = listModels().map((model): ModelHealthEntry => {
    const providers: Record<string, ModelProviderAvailability> = {};
    let anyConfigured = false;
    let anyAvailable = false;
    for (const id of model.providers) {
      const entry = byId.get(id);
      const available = entry?.available ?? false;
      anyConfigured ||= entry !== undefined && entry.status !== "unknown";
      anyAvailable ||= available;
      providers[id] = { available, raw_model_id: model.providerModelIds[id] ?? null };
    }
    if (anyConfigured && !anyAvailable) healthy = false;
    return { model_type: model.type, model_identifier: model.identifier, model_pricing: formatCredits(listPriceMillis(model)), providers };
  });
  return { service: "models", healthy, models_total: models.length, models };
}

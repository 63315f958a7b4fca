import { models, type ModelDefinition } from "./models";
import { providers, type ProviderDefinition } from "./providers";

// Lookups over the catalog. Maps are built once; the catalog is immutable data.

export type { ImageModel, ModelDefinition, ModelType, NonEmpty, VideoModel, VideoResolution } from "./models";
export type { DeliveryMethod, ProviderCapability, ProviderDefinition, ProviderId, ProviderStatus } from "./providers";
export { providerIds, providerStatus } from "./providers";

const modelsByIdentifier = new Map(models.map((model) => [model.identifier, model]));

export function findModel(identifier: string): ModelDefinition | undefined {
  return modelsByIdentifier.get(identifier);
}

export function listModels(): readonly ModelDefinition[] {
  return models;
}

export function listProviders(): readonly ProviderDefinition[] {
  return providers;
}

/** Models the provider serves, in library order. */
export function modelsForProvider(id: string): ModelDefinition[] {
  return models.filter((model) => model.providers.some((provider) => provider === id));
}

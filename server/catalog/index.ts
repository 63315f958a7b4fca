import { models, type ModelDefinition } from "./models";
import { providers, type ProviderDefinition } from "./providers";

// Lookups over the catalog. Maps are built once; the catalog is immutable data.

export type { ImageModel, ModelDefinition, ModelType, NonEmpty, VideoModel, VideoResolution } from "./models";
export type { DeliveryMethod, ProviderCapability, ProviderDefinition, ProviderId, ProviderStatus } from "./providers";
export { providerIds, providerStatus } from "./providers";

const modelsByIdentifier = new Map(models.map((model) => [model.identifier, model]));
const providersById = new Map<string, ProviderDefinition>(providers.map((provider) => [provider.id, provider]));

export function findModel(identifier: string): ModelDefinition | undefined {
  return modelsByIdentifier.get(identifier);
}

export function listModels(): readonly ModelDefinition[] {
  return models;
}

export function findProvider(id: string): ProviderDefinition | undefined {
  return providersById.get(id);
}

export function listProviders(): readonly ProviderDefinition[] {
  return providers;
}

/** Models the provider serves, in library order. */
export function modelsForProvider(id: string): ModelDefinition[] {
  return models.filter((model) => model.providers.some((provider) => provider === id));
}

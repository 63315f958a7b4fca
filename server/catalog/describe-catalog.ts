import { listModels, listProviders, type ModelType, type ProviderId } from ".";
import { formatCredits, listPriceMillis } from "./pricing";

// The catalog as one deployment sees it (`npm run cli -- catalog:list`): every model with its
// providers and list price, every provider with the env that configures it. Which providers are
// configured is the env's to say (server/providers/configured-providers.ts), so it is passed in.

export type CatalogFilter = { type?: ModelType; provider?: ProviderId };

export function describeCatalog(configured: ReadonlySet<string>, filter: CatalogFilter = {}) {
  const models = listModels().filter(
    (model) => (!filter.type || model.type === filter.type) && (!filter.provider || model.providers.includes(filter.provider)),
  );
  return {
    models: models.map((model) => ({
      identifier: model.identifier,
      name: model.name,
      type: model.type,
      /** Per output for images; per second at the default resolution, without audio, for videos (`model_pricing`). */
      list_price: formatCredits(listPriceMillis(model)),
      list_price_unit: model.type === "image" ? "output" : "second",
      providers: model.providers.map((provider) => ({
        provider,
        provider_model_id: model.providerModelIds[provider] ?? null,
        configured: configured.has(provider),
      })),
    })),
    providers: listProviders()
      .filter((provider) => !filter.provider || provider.id === filter.provider)
      .map((provider) => ({
        id: provider.id,
        name: provider.name,
        configured: configured.has(provider.id),
        env: [provider.credentialEnv, ...(provider.requiredEnv ?? [])].filter((name): name is string => name !== null),
      })),
  };
}

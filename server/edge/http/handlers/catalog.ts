import "server-only";
import { listProviders } from "../../../catalog";
import { disabledCatalog } from "../../../catalog/disabled-catalog";
import { libraryModels } from "./library-models";
import { estimateForAccount } from "../../../catalog/estimate-for-account";
import { shapeLibraryProvider } from "./library-shapes";
import { db } from "../../../base/db";
import { configuredProviders, implementationSettings } from "../../../providers/configured-providers";
import { catalog } from "../operations";
import { withApiKey } from "../with-api-key";

// The /v1 handlers of the catalog: models, providers and what a generation would cost.

export const listLibraryModels = withApiKey(catalog.listModels, async ({ query }) => {
  const models = libraryModels(query);
  return { models_total: models.length, models };
});

export const listLibraryProviders = withApiKey(catalog.listProviders, async () => {
  const configured = configuredProviders();
  const settings = implementationSettings();
  const { providers: disabled } = disabledCatalog();
  const providers = listProviders().map((provider) => shapeLibraryProvider(provider, configured, settings, disabled));
  return { providers_total: providers.length, providers };
});

export const getEstimate = withApiKey(catalog.getEstimate, async ({ accountId, key, params, query }) =>
  estimateForAccount(db, accountId, key.id, params.model_identifier ?? "", query, configuredProviders()),
);

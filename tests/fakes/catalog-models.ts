import { modelsForProvider, type ProviderId } from "@/server/catalog";

/** The model ids the catalog lists for a provider: what its fake serves on its model read endpoint, until a test forgets one. */
export function catalogModelIds(provider: ProviderId): Set<string> {
  return new Set(modelsForProvider(provider).flatMap((model) => model.providerModelIds[provider] ?? []));
}

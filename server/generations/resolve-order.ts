import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";
import type { RegionName } from "../env";
import { configuredProviders } from "../providers/configured-providers";
import type { ExploredOrder } from "../routing/explore-providers";
import { resolveProviderOrder } from "../routing/resolve-provider-order";
import type { RequestedOrder } from "./parse-provider-order";

// The provider chain stored on the record: an explicit list as given; `fastest` ranked from
// recent attempts (server/routing) among the providers this deployment can call, falling back to
// catalog order; a small share explores the second-ranked provider first.

export async function resolveOrder(model: ModelDefinition, region: RegionName, requested: RequestedOrder, generationId: string): Promise<ExploredOrder> {
  if (requested.mode === "explicit") return { order: requested.providers, explored: false };
  const configured = configuredProviders();
  const usable = model.providers.filter((provider) => configured.has(provider));
  const candidates = usable.length > 0 ? usable : [...model.providers];
  if (candidates.length === 1) return { order: candidates, explored: false };
  return resolveProviderOrder({ model: { identifier: model.identifier, providers: candidates as [ProviderId, ...ProviderId[]] }, region, requested, generationId });
}

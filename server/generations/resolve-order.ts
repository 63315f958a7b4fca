import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";
import type { RegionName } from "../env";
import { configuredProviders } from "../providers/configured-providers";
import { resolveProviderOrder } from "../routing/resolve-provider-order";
import type { RequestedOrder } from "./parse-provider-order";

// The provider chain stored on the record: an explicit list as given; `fastest` ranked from
// recent attempts (server/routing) among the providers this deployment can call, falling back to
// catalog order.

export async function resolveOrder(model: ModelDefinition, region: RegionName, requested: RequestedOrder): Promise<ProviderId[]> {
  if (requested.mode === "explicit") return requested.providers;
  const configured = configuredProviders();
  const usable = model.providers.filter((provider) => configured.has(provider));
  const candidates = usable.length > 0 ? usable : [...model.providers];
  if (candidates.length === 1) return candidates;
  return resolveProviderOrder({ model: { identifier: model.identifier, providers: candidates as [ProviderId, ...ProviderId[]] }, region, requested });
}

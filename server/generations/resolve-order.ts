import "server-only";
import type { ModelDefinition } from "../catalog";
import { disabledCatalog, type DisabledCatalog } from "../catalog/disabled-catalog";
import { enabledProviders } from "../catalog/model-status";
import type { ProviderId } from "../catalog/providers";
import type { RegionName } from "../base/env";
import { invalidRequest } from "../base/error-table";
import { configuredProviders } from "../providers/configured-providers";
import type { ExploredOrder } from "../routing/explore-providers";
import { resolveProviderOrder } from "../routing/resolve-provider-order";
import type { RequestedOrder } from "./parse-provider-order";

// The provider chain stored on the record, without the providers the operator turned off: an
// explicit list as given; `fastest` ranked from recent attempts (server/routing) among the
// providers this deployment can call, falling back to catalog order; a small share explores the
// second-ranked provider first.

export async function resolveOrder(
  model: ModelDefinition,
  region: RegionName,
  requested: RequestedOrder,
  generationId: string,
  disabled: DisabledCatalog = disabledCatalog(),
): Promise<ExploredOrder> {
  if (requested.mode === "explicit") return { order: explicitOrder(model, requested.providers, disabled), explored: false };
  const configured = configuredProviders();
  const enabled = enabledProviders(model.providers, disabled);
  const usable = enabled.filter((provider) => configured.has(provider));
  const candidates = usable.length > 0 ? usable : enabled;
  if (candidates.length <= 1) return { order: candidates, explored: false };
  return resolveProviderOrder({
    model: { identifier: model.identifier, providers: candidates as [ProviderId, ...ProviderId[]] },
    region,
    requested,
    generationId,
  });
}

/** A list naming only turned-off providers has nothing to try: refused, naming them. */
function explicitOrder(model: ModelDefinition, providers: readonly ProviderId[], disabled: DisabledCatalog): ProviderId[] {
  const order = enabledProviders(providers, disabled);
  if (order.length > 0) return order;
  const field = "generation_provider_order";
  throw invalidRequest(
    `${field} lists only providers turned off on this deployment (${providers.join(", ")}); ${model.identifier} can use: ${enabledProviders(model.providers, disabled).join(", ")}.`,
    [{ field, message: `${providers.join(", ")} ${providers.length === 1 ? "is" : "are"} turned off on this deployment` }],
  );
}

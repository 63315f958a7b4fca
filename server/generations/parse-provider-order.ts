import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";
import { invalidRequest } from "../base/error-table";

// `generation_provider_order`: "fastest", or a comma list of the model's providers tried in that
// order. Multi-provider models default to fastest; a single-provider model has one order.

export type RequestedOrder = { mode: "fastest" } | { mode: "explicit"; providers: ProviderId[] };

const FIELD = "generation_provider_order";

export function parseProviderOrder(model: ModelDefinition, raw: string | undefined): RequestedOrder {
  if (raw === undefined || raw.trim().toLowerCase() === "fastest") {
    return model.providers.length > 1 ? { mode: "fastest" } : { mode: "explicit", providers: [...model.providers] };
  }
  const names = raw
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const allowed = model.providers as readonly string[];
  const unknown = names.filter((name) => !allowed.includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw invalidRequest(`${FIELD} must be "fastest" or a comma-separated list of: ${allowed.join(", ")}.`, [
      { field: FIELD, message: unknown.length ? `${unknown.join(", ")} cannot serve ${model.identifier}` : "must not be empty" },
    ]);
  }
  if (new Set(names).size !== names.length)
    throw invalidRequest(`${FIELD} lists a provider twice.`, [{ field: FIELD, message: "lists a provider twice" }]);
  return { mode: "explicit", providers: names as ProviderId[] };
}

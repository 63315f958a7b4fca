import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// Runway's GET /v1/organization (https://docs.dev.runwayml.com/api/#tag/Organization) answers the
// credit balance and the usage tier, whose `tier.models` names every model the key may use: one
// call confirms the key and each model id.

export function checkRunway(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "runway",
      credential: { what: "GET /v1/organization", send: () => get("/v1/organization"), understood: (body) => tierModels(body) !== null },
      models: { listed: (body, model) => Object.hasOwn(tierModels(body) ?? {}, model) },
    },
    providerModelIds,
  );
}

function tierModels(body: unknown): Record<string, unknown> | null {
  if (!isRecord(body) || typeof body.creditBalance !== "number" || !isRecord(body.tier) || !isRecord(body.tier.models)) return null;
  return body.tier.models;
}

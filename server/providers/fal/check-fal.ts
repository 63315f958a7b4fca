import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// fal's Platform API (https://fal.ai/docs/api-reference/platform-apis, https://api.fal.ai/v1), with
// the same `Key` header as the queue: GET /v1/models?limit=1 for the key, and its find mode,
// GET /v1/models?endpoint_id={id}, for each endpoint the catalog names.

export function checkFal(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "fal",
      credential: { what: "GET /v1/models", send: () => get("/v1/models?limit=1"), understood: (body) => endpointsOf(body) !== null },
      models: {
        lookup: (endpointId) => ({
          what: `GET /v1/models?endpoint_id=${endpointId}`,
          send: () => get(`/v1/models?endpoint_id=${encodeURIComponent(endpointId)}`),
        }),
        found: (body, endpointId) => endpointsOf(body)?.includes(endpointId) ?? null,
      },
    },
    providerModelIds,
  );
}

function endpointsOf(body: unknown): string[] | null {
  if (!isRecord(body) || !Array.isArray(body.models)) return null;
  return body.models.filter(isRecord).map((model) => String(model.endpoint_id));
}

import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// OpenAI's Models API (https://platform.openai.com/docs/api-reference/models): GET /v1/models for
// the key, GET /v1/models/{model} (404 model_not_found when it is not there) for each model.

export function checkOpenAI(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "openai",
      credential: {
        what: "GET /v1/models",
        send: () => get("/v1/models"),
        understood: (body) => isRecord(body) && body.object === "list" && Array.isArray(body.data),
      },
      models: {
        lookup: (model) => ({ what: `GET /v1/models/${model}`, send: () => get(`/v1/models/${encodeURIComponent(model)}`) }),
        found: (body, model) => (isRecord(body) && body.object === "model" ? body.id === model : null),
      },
    },
    providerModelIds,
  );
}

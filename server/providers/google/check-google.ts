import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// The Gemini API's models (https://ai.google.dev/api/models): models.list (GET /v1beta/models) for
// the key, models.get (GET /v1beta/models/{model}, 404 NOT_FOUND when absent) for each model. A
// refused key is HTTP 400 INVALID_ARGUMENT with the ErrorInfo reason API_KEY_INVALID.

export function checkGoogle(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "google",
      credential: {
        what: "GET /v1beta/models",
        send: () => get("models?pageSize=1"),
        understood: (body) => isRecord(body) && Array.isArray(body.models),
      },
      models: {
        lookup: (model) => ({ what: `GET /v1beta/models/${model}`, send: () => get(`models/${encodeURIComponent(model)}`) }),
        found: (body, model) => (isRecord(body) && typeof body.name === "string" ? body.name === `models/${model}` : null),
      },
      classify: (response) =>
        errorReasons(response.body).includes("API_KEY_INVALID") ? { state: "refused", code: "API_KEY_INVALID" } : null,
    },
    providerModelIds,
  );
}

function errorReasons(body: unknown): unknown[] {
  if (!isRecord(body) || !isRecord(body.error) || !Array.isArray(body.error.details)) return [];
  return body.error.details.filter(isRecord).map((detail) => detail.reason);
}

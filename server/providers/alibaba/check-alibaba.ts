import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// Model Studio's model list (GET /api/v1/models, https://www.alibabacloud.com/help/en/model-studio/list-models):
// `{request_id, output: {total, page_no, page_size, models: [{model, name, …}]}}`. One entry for
// the key, then `?model={id}` (an exact match) for each model the catalog names.

export function checkAlibaba(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "alibaba",
      credential: {
        what: "GET /api/v1/models",
        send: () => get("/api/v1/models?page_no=1&page_size=1"),
        understood: (body) => modelsOf(body) !== null,
      },
      models: {
        lookup: (model) => ({
          what: `GET /api/v1/models?model=${model}`,
          send: () => get(`/api/v1/models?model=${encodeURIComponent(model)}`),
        }),
        found: (body, model) => modelsOf(body)?.includes(model) ?? null,
      },
    },
    providerModelIds,
  );
}

function modelsOf(body: unknown): string[] | null {
  if (!isRecord(body) || !isRecord(body.output) || !Array.isArray(body.output.models)) return null;
  return body.output.models.filter(isRecord).map((model) => String(model.model));
}

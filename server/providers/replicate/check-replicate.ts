import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// Replicate's read-only calls (https://replicate.com/docs/reference/http): GET /v1/account for the
// token, GET /v1/models/{owner}/{name} (…/versions/{id} for a pinned version) for each model.

export function checkReplicate(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "replicate",
      credential: {
        what: "GET /v1/account",
        send: () => get("/v1/account"),
        understood: (body) => isRecord(body) && typeof body.username === "string",
      },
      models: {
        lookup: (providerModelId) => {
          const path = modelPath(providerModelId);
          return { what: `GET ${path}`, send: () => get(path) };
        },
        // A model answers {owner, name, …}; a version {id, openapi_schema, …}.
        found: (body, providerModelId) =>
          isRecord(body) && typeof body[providerModelId.includes(":") ? "id" : "name"] === "string" ? true : null,
      },
    },
    providerModelIds,
  );
}

function modelPath(providerModelId: string): string {
  const [name = "", version] = providerModelId.split(":", 2);
  const model = `/v1/models/${name.split("/").map(encodeURIComponent).join("/")}`;
  return version ? `${model}/versions/${encodeURIComponent(version)}` : model;
}

import "server-only";
import { checkProvider, isRecord, type ReadOnlyGet } from "../check-provider";
import type { ProviderCheck } from "../types";

// Workers AI's model search (GET /accounts/{account_id}/ai/models/search,
// https://developers.cloudflare.com/api/resources/ai/subresources/models/methods/list/) in the v4
// envelope `{success, result: [{id, name, description, task}], errors}`: one result for the token
// and the account, then a search by each model's last name segment, matched on the exact name.
// Cloudflare's own refusal code (10000 Authentication error) counts whatever the HTTP status.

export function checkCloudflare(get: ReadOnlyGet, providerModelIds: string[]): Promise<ProviderCheck> {
  return checkProvider(
    {
      provider: "cloudflare",
      credential: {
        what: "GET /ai/models/search",
        send: () => get("/ai/models/search?per_page=1"),
        understood: (body) => namesOf(body) !== null,
      },
      models: {
        lookup: (model) => {
          const search = model.split("/").at(-1) ?? model;
          return {
            what: `GET /ai/models/search?search=${search}`,
            send: () => get(`/ai/models/search?search=${encodeURIComponent(search)}&per_page=50`),
          };
        },
        found: (body, model) => namesOf(body)?.includes(model) ?? null,
      },
      classify: (response) => (firstErrorCode(response.body) === 10000 ? { state: "refused", code: "10000" } : null),
    },
    providerModelIds,
  );
}

function namesOf(body: unknown): string[] | null {
  if (!isRecord(body) || body.success !== true || !Array.isArray(body.result)) return null;
  return body.result.filter(isRecord).map((model) => String(model.name));
}

function firstErrorCode(body: unknown): unknown {
  return isRecord(body) && Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0].code : undefined;
}

import { integerParam } from "../http/query-params";
import { withApiKey } from "../http/with-api-key";
import { cancelGeneration } from "./cancel-generation";
import { deleteGeneration } from "./delete-generation";
import { getGeneration, listGenerations } from "./read-generations";
import { startGeneration } from "./start-generation";

// The /v1 generation handlers, shared by the modern routes and their legacy aliases.

const create = (kind: "image" | "video") =>
  withApiKey(
    async ({ request, requestId, accountId, key, params }) =>
      startGeneration({ request, requestId, accountId, apiKeyId: key.id, region: key.region, kind, modelIdentifier: params.model_identifier ?? "" }),
    { scope: "generation:write", endpoint: `/v1/generate/${kind}/{model_identifier}`, bucket: "generation" },
  );

export const createImageGeneration = create("image");
export const createVideoGeneration = create("video");

export const getContent = withApiKey(async ({ accountId, params }) => ({ data: await getGeneration(accountId, params.generation_id ?? "") }), {
  scope: "generation:read",
  endpoint: "/v1/content/{generation_id}",
});

export const deleteContent = withApiKey(async ({ accountId, params }) => ({ data: await deleteGeneration(accountId, params.generation_id ?? ""), message: "Generation deleted." }), {
  scope: "generation:delete",
  endpoint: "/v1/content/{generation_id}",
});

export const listContent = withApiKey(
  async ({ accountId, query }) => {
    const limit = integerParam(query, "limit", { default: 50, min: 1, max: 100 });
    const offset = integerParam(query, "offset", { default: 0, min: 0 });
    const { total, generations } = await listGenerations(accountId, { limit, offset });
    return { data: { generations }, pagination: { total, limit, offset } };
  },
  { scope: "generation:read", endpoint: "/v1/content/list" },
);

export const cancelContent = withApiKey(async ({ accountId, params }) => ({ data: await cancelGeneration(accountId, params.generation_id ?? ""), message: "Generation canceled." }), {
  scope: "generation:delete",
  endpoint: "/v1/content/generation/cancel/{generation_id}",
});

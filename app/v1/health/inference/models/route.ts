import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { getModelHealth } from "@/server/health/model-health";
import { configuredProviders } from "@/server/providers/configured-providers";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(async () => ({ data: await getModelHealth({ configuredProviders: configuredProviders() }) }), { scope: "health:read", endpoint: "/v1/health/inference/models" }),
});

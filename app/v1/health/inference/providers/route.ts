import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { getProviderHealth } from "@/server/health/provider-health";
import { configuredProviders } from "@/server/providers/configured-providers";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(async () => ({ data: await getProviderHealth({ configuredProviders: configuredProviders() }) }), { scope: "health:read", endpoint: "/v1/health/inference/providers" }),
});

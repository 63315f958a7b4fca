import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { checkCache } from "@/server/health/check-cache";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(async () => ({ data: await checkCache() }), { scope: "health:read", endpoint: "/v1/health/cache" }),
});

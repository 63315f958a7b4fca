import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { checkStorage } from "@/server/health/check-storage";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(async () => ({ data: await checkStorage() }), { scope: "health:read", endpoint: "/v1/health/storage" }),
});

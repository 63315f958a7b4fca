import { checkCache } from "@/server/health/check-cache";
import { db } from "@/server/db";
import { health } from "@/server/http/operations";
import { servicePauseFields } from "@/server/service/service-state";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(withApiKey(health.getCacheHealth, async () => ({ ...(await checkCache()), ...(await servicePauseFields(db)) })));

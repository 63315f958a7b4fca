import { checkStorage } from "@/server/health/check-storage";
import { db } from "@/server/db";
import { health } from "@/server/http/operations";
import { servicePauseFields } from "@/server/service/service-state";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(withApiKey(health.getStorageHealth, async () => ({ ...(await checkStorage()), ...(await servicePauseFields(db)) })));

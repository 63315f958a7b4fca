import { getModelHealth } from "@/server/health/model-health";
import { db } from "@/server/db";
import { health } from "@/server/http/operations";
import { servicePauseFields } from "@/server/service/service-state";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { configuredProviders } from "@/server/providers/configured-providers";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(
  withApiKey(health.getModelHealth, async ({ key }) => ({ ...(await getModelHealth({ region: key.region, configuredProviders: configuredProviders() })), ...(await servicePauseFields(db)) })),
);

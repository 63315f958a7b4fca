import "server-only";
import { disabledCatalog } from "../../../catalog/disabled-catalog";
import { db } from "../../../base/db";
import { checkCache } from "../../../health/check-cache";
import { checkStorage } from "../../../health/check-storage";
import { getModelHealth } from "../../../health/model-health";
import { getProviderHealth } from "../../../health/provider-health";
import { configuredProviders } from "../../../providers/configured-providers";
import { servicePauseFields } from "../../../service/service-state";
import { health } from "../operations";
import { withApiKey } from "../with-api-key";

// The /v1 health handlers: each check, plus whether the operator paused the service.

export const getProviderHealthReport = withApiKey(health.getProviderHealth, async ({ key }) => ({
  ...(await getProviderHealth({
    region: key.region,
    configuredProviders: configuredProviders(),
    disabledProviders: disabledCatalog().providers,
  })),
  ...(await servicePauseFields(db)),
}));

export const getModelHealthReport = withApiKey(health.getModelHealth, async ({ key }) => ({
  ...(await getModelHealth({ region: key.region, configuredProviders: configuredProviders(), disabled: disabledCatalog() })),
  ...(await servicePauseFields(db)),
}));

export const getCacheHealth = withApiKey(health.getCacheHealth, async () => ({
  ...(await checkCache()),
  ...(await servicePauseFields(db)),
}));

export const getStorageHealth = withApiKey(health.getStorageHealth, async () => ({
  ...(await checkStorage()),
  ...(await servicePauseFields(db)),
}));

import type { ResponseComponentName } from "../../contract/index";
import { defineOperation, type LegacyPath } from "../define-operation";
import { legacyPathsOf } from "../legacy-paths.mjs";

// The four health reads: `health:read`, the general bucket, no route-specific errors.
function healthRead<Response extends ResponseComponentName>(
  operationId: string,
  path: string,
  component: Response,
  summary: string,
  description: string,
  legacyPaths: LegacyPath[] = [],
) {
  return defineOperation({
    operationId,
    method: "GET",
    path,
    legacyPaths,
    tag: "Health",
    summary,
    description,
    scope: "health:read",
    response: { component },
    errors: [],
  });
}

export const getProviderHealth = healthRead(
  "getProviderHealth",
  "/v1/health/inference/providers",
  "ProvidersHealth",
  "Provider availability",
  "Each provider judged by its finished attempts in a rolling window in the region this address serves, with the routing circuit breaker: `healthy`, `recovering`, `degraded`, or `unknown` when not configured; `status_reason` says why.",
  legacyPathsOf("/v1/health/inference/providers"),
);

export const getModelHealth = healthRead(
  "getModelHealth",
  "/v1/health/inference/models",
  "ModelsHealth",
  "Model availability per provider",
  "For each model, which of its providers can take work now in the region this address serves.",
);

export const getStorageHealth = healthRead(
  "getStorageHealth",
  "/v1/health/storage",
  "StorageHealth",
  "Storage health",
  "A real write, read-back and delete through the configured output storage.",
);

export const getCacheHealth = healthRead(
  "getCacheHealth",
  "/v1/health/cache",
  "CacheHealth",
  "Cache health",
  "Probes the store of the rate-limit and routing counters (Redis, or PostgreSQL without it).",
);

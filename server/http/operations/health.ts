import "server-only";
import { defineOperation } from "../define-operation";

export const getProviderHealth = defineOperation({
  operationId: "getProviderHealth",
  method: "GET",
  path: "/v1/health/inference/providers",
  legacyPaths: [{ operationId: "legacyGetProviderHealth", path: "/v1/health/providers" }],
  tag: "Health",
  summary: "Provider availability",
  description: "Each provider judged by its finished attempts in a rolling window, with the routing circuit breaker: `healthy`, `recovering`, `degraded`, or `unknown` when not configured; `status_reason` says why.",
  scope: "health:read",
  response: { component: "ProvidersHealth" },
  errors: [],
});

export const getModelHealth = defineOperation({
  operationId: "getModelHealth",
  method: "GET",
  path: "/v1/health/inference/models",
  tag: "Health",
  summary: "Model availability per provider",
  description: "For each model, which of its providers can take work now.",
  scope: "health:read",
  response: { component: "ModelsHealth" },
  errors: [],
});

export const getStorageHealth = defineOperation({
  operationId: "getStorageHealth",
  method: "GET",
  path: "/v1/health/storage",
  tag: "Health",
  summary: "Storage health",
  description: "A real write, read-back and delete through the configured output storage.",
  scope: "health:read",
  response: { component: "StorageHealth" },
  errors: [],
});

export const getCacheHealth = defineOperation({
  operationId: "getCacheHealth",
  method: "GET",
  path: "/v1/health/cache",
  tag: "Health",
  summary: "Cache health",
  description: "Probes the store of the rate-limit and routing counters (Redis, or PostgreSQL without it).",
  scope: "health:read",
  response: { component: "CacheHealth" },
  errors: [],
});

import { z } from "zod";
import { creditsSchema, dateTimeSchema, modelIdentifierSchema } from "./common";
import { modelStatusSchema, modelTypeSchema, providerIdSchema } from "./catalog";

// The four GET /v1/health/... routes.

export const providerHealthSchema = z.object({
  provider: providerIdSchema,
  status: z
    .enum(["healthy", "recovering", "degraded", "unknown"])
    .describe(
      "`unknown`: not configured, or turned off on this deployment (CATALOG_DISABLED_PROVIDERS). `degraded`: circuit open, or half the window's attempts failed with the latest failing. `recovering`: it was failing but has succeeded since, or its circuit is half-open. `healthy`: otherwise, including too few attempts to judge.",
    ),
  status_reason: z.string().describe("Why the status is what it is, e.g. `not configured: FAL_KEY is not set`."),
  available: z.boolean().describe("Configured, not turned off, and not failing 90% or more of the window with no success since."),
  failure_rate: z.number().min(0).max(1).describe("failures / total_attempts in the window, three decimals; 0 without attempts."),
  window: z.object({
    total_attempts: z.int().min(0).describe("Finished attempts of any outcome."),
    failures: z.int().min(0),
    successes: z.int().min(0),
    duration_seconds: z.int().min(1),
  }),
});

/** Every health answer also says whether the operator paused the service (creates answer ERR3001). */
const servicePauseShape = {
  service_paused: z.boolean().describe("The operator paused the service: new generations are refused with ERR3001; everything else works."),
  service_paused_reason: z.string().nullable().describe("Why, when the operator said."),
};

export const providersHealthSchema = z.object({
  service: z.literal("providers"),
  healthy: z.boolean().describe("Every configured provider is available."),
  providers_total: z.int().min(0),
  providers: z.array(providerHealthSchema),
  ...servicePauseShape,
});

export const modelProviderAvailabilitySchema = z.object({
  available: z.boolean().describe("The provider's `available` in provider health."),
  raw_model_id: z.string().nullable().describe("The provider's own id for the model."),
  attempts: z.int().min(0).describe("This model's attempts on this provider that finished in the provider-health window, of any outcome."),
  succeeded: z.int().min(0),
  failed: z.int().min(0),
  success_rate: z.number().min(0).max(1).nullable().describe("succeeded / attempts, three decimals; null without attempts."),
  p50_latency_ms: z.int().min(0).nullable().describe("Median latency of the succeeded attempts in milliseconds; null without one."),
  last_error_code: z
    .string()
    .nullable()
    .describe("The error code of the newest failed attempt in the window (e.g. ERR4002); null without one."),
  last_error_at: dateTimeSchema.nullable().describe("When that attempt finished; null without one."),
});

export const modelsHealthSchema = z.object({
  service: z.literal("models"),
  healthy: z
    .boolean()
    .describe("Every model with a configured provider that is not turned off has an available one; a disabled model does not count."),
  models_total: z.int().min(0),
  models: z.array(
    z.object({
      model_type: modelTypeSchema.describe("`image` or `video`, as in the library."),
      model_identifier: modelIdentifierSchema,
      model_pricing: creditsSchema,
      model_status: modelStatusSchema.describe("As in the library: `active`, `not_configured` or `disabled`."),
      providers: z
        .record(z.string(), modelProviderAvailabilitySchema)
        .describe("Provider id → availability, for each of the model's providers."),
    }),
  ),
  ...servicePauseShape,
});

const latencySchema = z.number().min(0).describe("Duration of the probe in milliseconds.");

export const storageHealthSchema = z.object({
  service: z.literal("storage"),
  healthy: z.boolean().describe("A write, read-back and delete succeeded within the check timeout."),
  latency_ms: latencySchema,
  bucket: z.string().describe("The S3 bucket, or `local:<directory>` for local-disk storage."),
  driver: z.enum(["local-disk", "s3"]),
  ...servicePauseShape,
});

export const cacheHealthSchema = z.object({
  service: z.literal("redis").describe("Always `redis`, the name clients of this API shape expect; `backend` says what answered."),
  healthy: z.boolean(),
  latency_ms: latencySchema,
  backend: z
    .enum(["redis", "postgres"])
    .describe("Where rate-limit and routing counters live: Redis when REDIS_URL is set, else PostgreSQL."),
  ...servicePauseShape,
});

export type ProvidersHealthData = z.infer<typeof providersHealthSchema>;
export type ModelsHealthData = z.infer<typeof modelsHealthSchema>;
export type StorageHealthData = z.infer<typeof storageHealthSchema>;
export type CacheHealthData = z.infer<typeof cacheHealthSchema>;

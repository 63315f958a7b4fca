import type { z } from "zod";
import type { ModelType } from "../catalog/index";
import type { ErrorCode } from "../http/errors";
import type { ApiKeyScope } from "../keys/scopes";
import type { RateLimitBucket } from "../rate-limit/check-rate-limit";
import { usageQuerySchema } from "./schemas/account";
import { estimateQuerySchema } from "./schemas/catalog";
import { contentListQuerySchema } from "./schemas/generations";
import type { ResponseComponentName } from "./schemas/index";

// Every /v1 operation, as data: what the document says and what the routes must do. The
// modern routes are spec §4's endpoint table; the legacy ones are its "other path forms" and the
// old /api/v1 base (ARCHITECTURE §4: aliases with identical shapes).

export type HttpMethod = "get" | "post" | "delete";
export type PathParam = "model_identifier" | "modelIdentifier" | "generation_id";
export type OperationTag = "Account" | "Catalog" | "Generations" | "Health" | "Legacy paths";

export type V1Operation = {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/content/{generation_id}`. */
  path: string;
  summary: string;
  description: string;
  tag: OperationTag;
  scope: ApiKeyScope;
  bucket: RateLimitBucket;
  pathParams: PathParam[];
  query?: z.ZodObject;
  /** Create routes: the body is the model's strict create schema. */
  body?: ModelType;
  /** Accepts the Idempotency-Key header. */
  idempotent: boolean;
  success: { status: 200 | 202; data: ResponseComponentName; paginated: boolean };
  /** Route-specific codes; the ones every authenticated route can return are added to these. */
  errors: ErrorCode[];
  deprecated: boolean;
  /** Legacy operations: `METHOD /path` of the modern operation they alias. */
  aliasOf?: string;
};

/** What any authenticated route can answer, before or around its own logic. */
export const authenticatedRouteErrors: readonly ErrorCode[] = ["ERR1002", "ERR1003", "ERR1005", "ERR1007", "ERR5000"];

const createErrors: ErrorCode[] = ["ERR1001", "ERR1004", "ERR1009", "ERR1011", "ERR1012", "ERR2014", "ERR2015", "ERR2016"];

type Definition = Omit<V1Operation, "tag" | "pathParams" | "idempotent" | "deprecated" | "aliasOf" | "success"> & {
  success: { status?: 200 | 202; data: ResponseComponentName; paginated?: boolean };
  idempotent?: boolean;
};

function operation(tag: OperationTag, definition: Definition): V1Operation {
  const pathParams = [...definition.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as PathParam);
  return {
    ...definition,
    tag,
    pathParams,
    idempotent: definition.idempotent ?? false,
    deprecated: false,
    success: { status: definition.success.status ?? 200, data: definition.success.data, paginated: definition.success.paginated ?? false },
  };
}

const createDescription = (kind: ModelType) =>
  `Validates the body against the model's strict schema (see \`GET /v1/library/models\`; the exact schema per model is in this request body's \`x-darkroom-models\`), checks the ${kind} concurrency cap, reserves the estimated cost and creates the generation in \`pending\`. Execution runs after the response: poll \`GET /v1/content/{generation_id}\` or subscribe to webhook events. Counts toward the generation rate-limit bucket.`;

export const v1Operations: readonly V1Operation[] = [
  operation("Account", {
    operationId: "getStatus",
    method: "get",
    path: "/v1/status",
    summary: "Key and account identity",
    description: "Identifies the API key making the request and its account.",
    scope: "account:read",
    bucket: "general",
    success: { data: "KeyStatus" },
    errors: [],
  }),
  operation("Account", {
    operationId: "getUsage",
    method: "get",
    path: "/v1/usage",
    summary: "Usage summary",
    description: "Requests, generations and provider submissions of the account over the last `days` days.",
    scope: "account:read",
    bucket: "general",
    query: usageQuerySchema,
    success: { data: "UsageSummary" },
    errors: ["ERR1001"],
  }),
  operation("Account", {
    operationId: "getAccount",
    method: "get",
    path: "/v1/user/account",
    summary: "Account profile",
    description: "The profile of the key's account.",
    scope: "account:read",
    bucket: "general",
    success: { data: "AccountProfile" },
    errors: [],
  }),
  operation("Account", {
    operationId: "getBilling",
    method: "get",
    path: "/v1/user/billing",
    summary: "Plan, credit balance and subscription period",
    description: "The account's plan, credit balance and subscription state.",
    scope: "account:read",
    bucket: "general",
    success: { data: "BillingSummary" },
    errors: [],
  }),
  operation("Catalog", {
    operationId: "getEstimate",
    method: "get",
    path: "/v1/estimate/{model_identifier}",
    summary: "Cost estimate",
    description: "Prices a generation with the same function create reserves with, and says whether the balance can pay for it.",
    scope: "library:read",
    bucket: "general",
    query: estimateQuerySchema,
    success: { data: "Estimate" },
    errors: ["ERR1001", "ERR1012"],
  }),
  operation("Generations", {
    operationId: "createImageGeneration",
    method: "post",
    path: "/v1/generate/image/{model_identifier}",
    summary: "Start an image generation",
    description: createDescription("image"),
    scope: "generation:write",
    bucket: "generation",
    body: "image",
    idempotent: true,
    success: { status: 202, data: "GenerationCreated" },
    errors: createErrors,
  }),
  operation("Generations", {
    operationId: "createVideoGeneration",
    method: "post",
    path: "/v1/generate/video/{model_identifier}",
    summary: "Start a video generation",
    description: createDescription("video"),
    scope: "generation:write",
    bucket: "generation",
    body: "video",
    idempotent: true,
    success: { status: 202, data: "GenerationCreated" },
    errors: createErrors,
  }),
  operation("Generations", {
    operationId: "getGeneration",
    method: "get",
    path: "/v1/content/{generation_id}",
    summary: "One generation record",
    description: "The generation record. Only the owning account may read it; any other id is ERR1006.",
    scope: "generation:read",
    bucket: "general",
    success: { data: "GenerationRecord" },
    errors: ["ERR1006"],
  }),
  operation("Generations", {
    operationId: "listGenerations",
    method: "get",
    path: "/v1/content/list",
    summary: "List generation records",
    description: "The account's generations, newest first. `total`, `limit` and `offset` sit beside `data`.",
    scope: "generation:read",
    bucket: "general",
    query: contentListQuerySchema,
    success: { data: "GenerationList", paginated: true },
    errors: ["ERR1001"],
  }),
  operation("Generations", {
    operationId: "deleteGeneration",
    method: "delete",
    path: "/v1/content/{generation_id}",
    summary: "Delete a generation and its output files",
    description: "Removes the generation and its stored output files.",
    scope: "generation:delete",
    bucket: "general",
    success: { data: "GenerationDeleted" },
    errors: ["ERR1006"],
  }),
  operation("Generations", {
    operationId: "cancelGeneration",
    method: "post",
    path: "/v1/content/generation/cancel/{generation_id}",
    summary: "Cancel an in-flight generation",
    description:
      "Cancels a generation that is still `pending` or `processing`: it becomes `canceled`, its reserved credits are refunded and a cancel is sent to the provider (best effort). A terminal generation is ERR1010.",
    scope: "generation:delete",
    bucket: "general",
    success: { data: "GenerationCanceled" },
    errors: ["ERR1006", "ERR1010"],
  }),
  operation("Health", {
    operationId: "getProviderHealth",
    method: "get",
    path: "/v1/health/inference/providers",
    summary: "Provider availability",
    description: "Each provider judged by its finished attempts in a rolling window, with the routing circuit breaker: `healthy`, `recovering`, `degraded`, or `unknown` when not configured; `status_reason` says why.",
    scope: "health:read",
    bucket: "general",
    success: { data: "ProvidersHealth" },
    errors: [],
  }),
  operation("Health", {
    operationId: "getModelHealth",
    method: "get",
    path: "/v1/health/inference/models",
    summary: "Model availability per provider",
    description: "For each model, which of its providers can take work now.",
    scope: "health:read",
    bucket: "general",
    success: { data: "ModelsHealth" },
    errors: [],
  }),
  operation("Health", {
    operationId: "getStorageHealth",
    method: "get",
    path: "/v1/health/storage",
    summary: "Storage health",
    description: "A real write, read-back and delete through the configured output storage.",
    scope: "health:read",
    bucket: "general",
    success: { data: "StorageHealth" },
    errors: [],
  }),
  operation("Health", {
    operationId: "getCacheHealth",
    method: "get",
    path: "/v1/health/cache",
    summary: "Cache health",
    description: "Probes the store of the rate-limit and routing counters (Redis, or PostgreSQL without it).",
    scope: "health:read",
    bucket: "general",
    success: { data: "CacheHealth" },
    errors: [],
  }),
  operation("Catalog", {
    operationId: "listProviders",
    method: "get",
    path: "/v1/library/providers",
    summary: "Provider catalog",
    description: "The inference providers Darkroom routes to and how each is integrated.",
    scope: "library:read",
    bucket: "general",
    success: { data: "LibraryProviderList" },
    errors: [],
  }),
  operation("Catalog", {
    operationId: "listModels",
    method: "get",
    path: "/v1/library/models",
    summary: "Model catalog",
    description: "Every model with its create schema, providers and pricing.",
    scope: "library:read",
    bucket: "general",
    success: { data: "LibraryModelList" },
    errors: [],
  }),
];

/** Spec §4 "Other path forms": each serves the operation it parallels, unchanged. */
const legacyForms: ReadonlyArray<{ operationId: string; method: HttpMethod; path: string; of: string }> = [
  { operationId: "legacyListImages", method: "get", path: "/v1/list/image", of: "listGenerations" },
  { operationId: "legacyGetImageGeneration", method: "get", path: "/v1/image-generation/{generation_id}", of: "getGeneration" },
  { operationId: "legacyGetProviderHealth", method: "get", path: "/v1/health/providers", of: "getProviderHealth" },
  { operationId: "legacyGetAccount", method: "get", path: "/v1/data/account", of: "getAccount" },
  { operationId: "legacyDataListImages", method: "get", path: "/v1/data/list/image", of: "listGenerations" },
  { operationId: "legacyCreateImageGeneration", method: "post", path: "/v1/image-generation/{modelIdentifier}", of: "createImageGeneration" },
];

function alias(of: V1Operation, form: { operationId: string; path: string; method?: HttpMethod }): V1Operation {
  if (form.method && form.method !== of.method) throw new Error(`${form.operationId} aliases ${of.operationId} with another method`);
  const pathParams = [...form.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as PathParam);
  return {
    ...of,
    operationId: form.operationId,
    path: form.path,
    pathParams,
    tag: "Legacy paths",
    summary: `${of.summary} (legacy path)`,
    description: `Deprecated alias of \`${of.method.toUpperCase()} ${of.path}\`, with the same request and response shapes. ${of.description}`,
    deprecated: true,
    aliasOf: `${of.method.toUpperCase()} ${of.path}`,
  };
}

function modern(operationId: string): V1Operation {
  const found = v1Operations.find((entry) => entry.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId}`);
  return found;
}

const apiBaseId = (operationId: string) => `apiV1${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}`;

export const legacyOperations: readonly V1Operation[] = [
  ...legacyForms.map((form) => alias(modern(form.of), form)),
  // The old reference's base: /api/v1/<anything> is served as /v1/<anything>, legacy forms included.
  ...v1Operations.map((entry) => alias(entry, { operationId: apiBaseId(entry.operationId), path: `/api${entry.path}` })),
  ...legacyForms.map((form) => alias(modern(form.of), { operationId: apiBaseId(form.operationId), path: `/api${form.path}` })),
];

export const allOperations: readonly V1Operation[] = [...v1Operations, ...legacyOperations];

/** The error codes an operation can return: its own plus those of every authenticated route. */
export function operationErrors(entry: V1Operation): ErrorCode[] {
  return [...new Set([...authenticatedRouteErrors, ...entry.errors])];
}

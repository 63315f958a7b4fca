import "server-only";
import { errorFamilies, errorFamilyOf } from "../../../base/error-families";
import { errorTable, type ErrorCode } from "../../../base/error-table";
import { planLimits, planNames } from "../../../plans/plan-limits";
import { buildComponents } from "./components";
import { operationObject, type ResponseComponents } from "./operation-object";
import { downloadOperationObject } from "./download-operation-object";
import { allOperations, downloadFileOperations, eventStreamOperations, type HttpMethod, type V1Operation } from "./routes";
import { streamOperationObject } from "./stream-operation-object";

// The OpenAPI 3.1 document of /v1, generated from the zod schemas and the route registry
// (the zod schemas are the single definition of the shapes). Served at GET /v1/openapi.json.

export const OPENAPI_DOCUMENT_PATH = "/v1/openapi.json";

export type OpenApiDocument = {
  openapi: "3.1.0";
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: Array<{ url: string; description: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Partial<Record<HttpMethod, Record<string, unknown>>>>;
  components: ReturnType<typeof buildComponents> & { responses: ResponseComponents };
  /** The error table, each code with its family: what the SDKs generate their error classes from. */
  "x-error-codes": Record<string, { type: string; status: number; retryable: boolean; family: string }>;
  "x-error-families": Record<string, { description: string; statuses: readonly string[] }>;
};

/** The base address: paths in the document already start with /v1 (or /api/v1). */
export function openApiServers(serverUrl: string): OpenApiDocument["servers"] {
  return [{ url: serverUrl.replace(/\/+$/, ""), description: "This region's address. A key works only on the region it was created in." }];
}

const tags: OpenApiDocument["tags"] = [
  { name: "Generations", description: "Start, read, list, cancel and delete image and video generations." },
  { name: "Catalog", description: "Models, providers and cost estimates." },
  { name: "Account", description: "The key, its account, billing state and usage." },
  { name: "Health", description: "Provider, model, storage and cache health." },
  { name: "Meta", description: "This document." },
  {
    name: "Legacy paths",
    description: "Older path forms and the old `/api/v1` base, served as aliases with identical shapes. Deprecated: use the modern paths.",
  },
];

function rateLimitTable(): string {
  const rows = planNames.map(
    (plan) => `| ${plan} | ${planLimits[plan].requestsPerMinute.general} | ${planLimits[plan].requestsPerMinute.generation} |`,
  );
  return ["| Plan | General requests/min | Generation requests/min |", "|---|---|---|", ...rows].join("\n");
}

function errorCodeTable(): string {
  const rows = Object.entries(errorTable).map(([code, entry]) => `| ${code} | \`${entry.type}\` | ${entry.status} | ${entry.retryable} |`);
  return ["| Code | Type | HTTP status | Retryable |", "|---|---|---|---|", ...rows].join("\n");
}

function description(): string {
  return [
    "Image and video generation through several inference providers, with one request schema, credits (1 credit = 1 USD, three decimals), scoped API keys and failover routing.",
    "## Authentication\nSend `Authorization: Bearer <API key>`. Each operation names the scope it requires.",
    '## Envelopes\nEvery response is JSON. Success: `{status: "success", request_id, message, timestamp, data}`; paginated lists add `total`, `limit`, `offset`, `has_more` and `next_cursor` beside `data`. Error: `{status: "error", request_id, error: {code, type, message, retryable, details}}`. `request_id` is also the `X-Request-Id` header. Unknown paths are ERR1006 and unsupported methods ERR1008, in the same envelope.',
    `## Rate limits\nPer account, in fixed one-minute windows. The two create routes count toward the generation bucket, every other route toward the general bucket. Responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; every 429 adds \`Retry-After\` (whole seconds): for ERR1005 until the window resets, for ERR1009 (concurrency) an estimate of when the first in-flight generation of that media kind finishes, from its model's typical run time; an ERR1009 answer's \`X-RateLimit-Remaining\` is 0.\n\n${rateLimitTable()}`,
    "## Spend limits\nA key may have a spend limit per UTC day, week (from Monday), calendar month or in total, shared with the keys it was rotated from or to; an account may have a monthly limit over all its keys. Spend in a period is what generations created in it were charged plus what is still reserved for those in flight; refunds give room back. A create that would go past a limit is refused before anything is reserved: ERR1014 (402, not retryable) with `details: {scope, limit, used, requested, resets_at}`. `GET /v1/status` shows the key's budget, `GET /v1/estimate` the room left.",
    "## Live streams\n`GET /v1/content/{generation_id}/events` and `GET /v1/content/events` answer `text/event-stream`. Each operation's `x-item-schema` (OpenAPI 3.2's `itemSchema`) lists its events: name, id, and the component its `data:` JSON follows; `x-ends-stream` marks those after which the stream ends. Resume with `Last-Event-ID`: every later event comes once, in order, and no id the client has comes again.",
    "## Downloads\n`GET /v1/usage/export` answers a file (`text/csv`, `Content-Disposition: attachment`), streamed as it is read; the operation's `x-rows` names the component each row's columns follow, per `format`. Errors before the file starts are the JSON error envelope.",
    "## Idempotency\nThe create routes accept an optional `Idempotency-Key` header; see the parameter.",
    `## Error codes\n${errorCodeTable()}\n\nA failed generation records its ERR4xxx code in \`generation_error_code\`. The document's \`x-error-codes\` holds this table with each code's family, and \`x-error-families\` the families (the SDKs' error classes) with the statuses that place an answer without the envelope.`,
  ].join("\n\n");
}

export function buildOpenApiDocument({ serverUrl }: { serverUrl: string }): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const responses: ResponseComponents = {};
  const add = (entry: V1Operation, operation: Record<string, unknown>) => {
    const item = (paths[entry.path] ??= {});
    if (item[entry.method]) throw new Error(`Two operations for ${entry.method.toUpperCase()} ${entry.path}`);
    item[entry.method] = operation;
  };
  for (const entry of allOperations) add(entry, operationObject(entry, responses));
  for (const entry of eventStreamOperations) add(entry, streamOperationObject(entry, responses));
  for (const entry of downloadFileOperations) add(entry, downloadOperationObject(entry, responses));
  paths[OPENAPI_DOCUMENT_PATH] = {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This OpenAPI document",
      description: "The OpenAPI 3.1 description of the API. Needs no API key.",
      tags: ["Meta"],
      security: [],
      responses: {
        "200": {
          description: "The document (not wrapped in the envelope).",
          headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
          content: { "application/json": { schema: { type: "object", description: "An OpenAPI 3.1.0 document." } } },
        },
      },
    },
  };

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: { title: "Darkroom API", version: "1", summary: "Regional media-generation API", description: description() },
    servers: openApiServers(serverUrl),
    tags,
    paths,
    components: { ...buildComponents(), responses },
    "x-error-codes": Object.fromEntries(
      Object.entries(errorTable).map(([code, entry]) => [code, { ...entry, family: errorFamilyOf[code as ErrorCode] }]),
    ),
    "x-error-families": errorFamilies,
  };
}

import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { getAccountProfile } from "@/server/accounts/get-account-profile";
import type { getBillingSummary } from "@/server/billing/get-billing-summary";
import { listModels, listProviders } from "@/server/catalog/index";
import type { estimateForAccount } from "@/server/catalog/estimate-for-account";
import {
  shapeLibraryModel,
  shapeLibraryProvider,
  type LibraryModelEntry,
  type LibraryProviderEntry,
} from "@/server/edge/http/handlers/library-shapes";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import type { CacheHealth } from "@/server/health/check-cache";
import type { StorageHealth } from "@/server/health/check-storage";
import { shapeModelHealth, type ModelsHealth } from "@/server/health/model-health";
import { figuresKey } from "@/server/health/model-provider-figures";
import { NOTHING_DISABLED } from "@/server/catalog/disabled-catalog";
import type { ProvidersHealth } from "@/server/health/provider-health";
import { errorBody, successBody } from "@/server/edge/http/envelope";
import { ApiError, errorTable, type ErrorCode } from "@/server/base/error-table";
import { apiKeyScopes } from "@/server/keys/scopes";
import type { SubscriptionStatus } from "@/server/base/generated/prisma/enums";
import type { UsageSummary } from "@/server/usage/get-usage";
import { buildOpenApiDocument, type OpenApiDocument } from "@/server/edge/http/openapi/build-document";
import { exampleGenerationBody } from "@/server/edge/http/openapi/operation-object";
import {
  allOperations,
  downloadFileOperations,
  eventStreamOperations,
  legacyOperations,
  v1Operations,
} from "@/server/edge/http/openapi/routes";
import { streamOperations } from "@/server/edge/http/operations";
import {
  accountProfileSchema,
  billingSummarySchema,
  cacheHealthSchema,
  contentListQuerySchema,
  errorEnvelopeSchema,
  estimateQuerySchema,
  estimateSchema,
  generationAttemptEventSchema,
  libraryModelSchema,
  libraryModelsSchema,
  libraryProviderSchema,
  libraryProvidersSchema,
  mediaKindRequestSchema,
  modelRequestComponentName,
  modelsHealthSchema,
  paginatedEnvelopeSchema,
  parseQuery,
  providersHealthSchema,
  responseComponents,
  storageHealthSchema,
  successEnvelopeSchema,
  usageQuerySchema,
  usageSummarySchema,
} from "@/server/edge/contract/index";
import type { ServicePauseFields } from "@/server/service/service-state";

// The generated document: structurally valid OpenAPI 3.1, complete against the route
// files, and its zod schemas agree with what the code really returns.

const document = buildOpenApiDocument({ serverUrl: "https://api.example.test" });
type Json = Record<string, any>;
const methods = ["get", "post", "put", "patch", "delete"] as const;

function operations(doc: OpenApiDocument = document) {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    methods.flatMap((method) =>
      item[method as keyof typeof item] ? [{ route, method, operation: item[method as keyof typeof item] as Json }] : [],
    ),
  );
}

function resolvePointer(pointer: string): unknown {
  expect(pointer.startsWith("#/"), pointer).toBe(true);
  let node: unknown = document;
  for (const raw of pointer.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

const deref = (node: Json): Json => (typeof node.$ref === "string" ? (resolvePointer(node.$ref) as Json) : node);

function collectRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, found);
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push(value);
      else collectRefs(value, found);
    }
  }
  return found;
}

// Type-level agreement between the zod schemas and the types the code already returns.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function sameType<T extends true>(_proof?: T) {}
sameType<Same<z.infer<typeof usageSummarySchema>, UsageSummary>>();
sameType<Same<z.infer<typeof accountProfileSchema>, Awaited<ReturnType<typeof getAccountProfile>>>>();
// The summary's status is typed `string` there (a widened literal); the schema names the values.
sameType<
  Same<
    Omit<z.infer<typeof billingSummarySchema>, "billing_subscription_status">,
    Omit<Awaited<ReturnType<typeof getBillingSummary>>, "billing_subscription_status">
  >
>();
sameType<Same<z.infer<typeof billingSummarySchema>["billing_subscription_status"], SubscriptionStatus | "none" | "manual">>();
sameType<Same<z.infer<typeof estimateSchema>, Awaited<ReturnType<typeof estimateForAccount>>>>();
sameType<Same<z.infer<typeof libraryModelSchema>, LibraryModelEntry>>();
sameType<Same<z.infer<typeof libraryProviderSchema>, LibraryProviderEntry>>();
sameType<Same<z.infer<typeof providersHealthSchema>, ProvidersHealth & ServicePauseFields>>();
sameType<Same<z.infer<typeof modelsHealthSchema>, ModelsHealth & ServicePauseFields>>();
sameType<Same<z.infer<typeof storageHealthSchema>, StorageHealth & ServicePauseFields>>();
sameType<Same<z.infer<typeof cacheHealthSchema>, CacheHealth & ServicePauseFields>>();

describe("the OpenAPI document: structure", () => {
  it("is OpenAPI 3.1.0 with info, a server and the bearer scheme", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info).toMatchObject({ title: "Darkroom API", version: "1" });
    expect(document.servers).toEqual([{ url: "https://api.example.test", description: expect.any(String) }]);
    expect(buildOpenApiDocument({ serverUrl: "http://localhost:3000/" }).servers[0]?.url).toBe("http://localhost:3000");
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });

  it("puts every path under /v1 or /api/v1, with unique operation ids", () => {
    for (const route of Object.keys(document.paths)) expect(route).toMatch(/^\/(api\/)?v1\//);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(allOperations.length + eventStreamOperations.length + downloadFileOperations.length + 1);
  });

  it("resolves every $ref", () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) expect(resolvePointer(ref), ref).toBeDefined();
  });

  it("gives components JSON Schema 2020-12 without per-schema $schema or fragment $id", () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(name).toMatch(/^[A-Za-z0-9._-]+$/);
      expect(schema).not.toHaveProperty("$schema");
      expect(schema).not.toHaveProperty("$id");
    }
  });

  it("uses only the fields OpenAPI 3.1 defines (or x- extensions) on operations, parameters, bodies and responses", () => {
    const allowed = {
      operation: [
        "tags",
        "summary",
        "description",
        "externalDocs",
        "operationId",
        "parameters",
        "requestBody",
        "responses",
        "callbacks",
        "deprecated",
        "security",
        "servers",
      ],
      parameter: [
        "name",
        "in",
        "description",
        "required",
        "deprecated",
        "allowEmptyValue",
        "schema",
        "content",
        "style",
        "explode",
        "allowReserved",
        "example",
        "examples",
      ],
      requestBody: ["description", "content", "required"],
      response: ["description", "headers", "content", "links"],
      mediaType: ["schema", "example", "examples", "encoding"],
      header: ["description", "required", "deprecated", "schema", "example", "examples"],
    };
    const check = (kind: keyof typeof allowed, node: Json, where: string) => {
      if (typeof node.$ref === "string") return expect(Object.keys(node), where).toEqual(["$ref"]);
      for (const key of Object.keys(node)) if (!key.startsWith("x-")) expect(allowed[kind], `${where}: ${key}`).toContain(key);
    };
    for (const { route, method, operation } of operations()) {
      const where = `${method} ${route}`;
      check("operation", operation, where);
      for (const parameter of operation.parameters ?? []) check("parameter", deref(parameter), where);
      if (operation.requestBody) {
        check("requestBody", operation.requestBody, where);
        for (const media of Object.values(operation.requestBody.content as Record<string, Json>)) check("mediaType", media, where);
      }
      for (const raw of Object.values(operation.responses as Record<string, Json>)) {
        const response = deref(raw);
        check("response", response, where);
        expect(typeof response.description).toBe("string");
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) check("mediaType", media, where);
        for (const header of Object.values((response.headers ?? {}) as Record<string, Json>)) check("header", deref(header), where);
      }
    }
  });

  it("declares every path template parameter, and only those", () => {
    for (const { route, operation } of operations()) {
      const templated = [...route.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = (operation.parameters ?? []).map(deref).filter((parameter: Json) => parameter.in === "path");
      expect(declared.map((parameter: Json) => parameter.name).sort(), route).toEqual(templated);
      for (const parameter of declared) expect(parameter.required).toBe(true);
    }
  });

  it("gives every operation its success response, and every authenticated one 401, 403, 429 and 500", () => {
    for (const { route, method, operation } of operations()) {
      const codes = Object.keys(operation.responses);
      const success = codes.filter((code) => code.startsWith("2"));
      expect(success, `${method} ${route}`).toHaveLength(1);
      if (route.endsWith("/openapi.json")) {
        expect(operation.security).toEqual([]);
        continue;
      }
      expect(codes, `${method} ${route}`).toEqual(expect.arrayContaining(["401", "403", "429", "500"]));
      expect(operation.security).toEqual([{ bearer: [operation["x-required-scope"]] }]);
      expect(["general", "generation"]).toContain(operation["x-rate-limit-bucket"]);
    }
  });

  it("wraps success data in the envelope and errors in the error envelope", () => {
    for (const { route, operation } of operations()) {
      if (route.endsWith("/openapi.json")) continue;
      for (const [code, raw] of Object.entries(operation.responses as Record<string, Json>)) {
        const response = deref(raw);
        // A live stream's 200 is text/event-stream (its own test below); its errors are envelopes too.
        if (code.startsWith("2") && response.content["text/event-stream"]) continue;
        // A download's 200 is a file (its own test below); its errors are envelopes too.
        if (code.startsWith("2") && response.content["text/csv"]) continue;
        const schema = deref(response.content["application/json"].schema);
        if (code.startsWith("2")) {
          expect(schema.required).toEqual(expect.arrayContaining(["status", "request_id", "message", "timestamp", "data"]));
          expect(schema.properties.status).toEqual({ type: "string", const: "success" });
          expect(schema.properties.data.$ref).toMatch(/^#\/components\/schemas\//);
        } else {
          expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorResponse" });
          const examples = Object.keys(response.content["application/json"].examples);
          for (const example of examples) expect(String(errorTable[example as ErrorCode].status)).toBe(code);
        }
        expect(response.headers["X-Request-Id"]).toBeDefined();
        if (code !== "401") expect(response.headers["X-RateLimit-Remaining"], `${route} ${code}`).toBeDefined();
        if (code === "429") expect(response.headers["Retry-After"]).toBeDefined();
      }
    }
  });

  it("uses 202 for the creates and 200 elsewhere, and pages the list", () => {
    for (const entry of allOperations) expect(entry.success.status).toBe(entry.body ? 202 : 200);
    const list = deref((document.paths["/v1/content/list"]?.get as Json).responses["200"]);
    const schema = deref(list.content["application/json"].schema);
    expect(schema.required).toEqual(expect.arrayContaining(["total", "limit", "offset", "data"]));
  });
});

describe("the OpenAPI document: completeness", () => {
  it("documents every route file under app/v1", () => {
    const root = path.resolve(import.meta.dirname, "../../app/v1");
    const routes: string[] = [];
    const walk = (dir: string, segments: string[]) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name), [...segments, entry.name]);
        else if (entry.name === "route.ts") routes.push(`/v1/${segments.join("/")}`);
      }
    };
    walk(root, []);
    const documented = routes
      .filter((route) => route !== "/v1/[...path]")
      .map((route) => route.replace(/\[\.\.\.([^\]]+)\]/g, "{$1}").replace(/\[([^\]]+)\]/g, "{$1}"));
    expect(documented.length).toBeGreaterThanOrEqual(12);
    // One folder serves both legacy /v1/image-generation forms (read by id, create by model).
    const expanded = documented.flatMap((route) =>
      route === "/v1/image-generation/{target}"
        ? ["/v1/image-generation/{generation_id}", "/v1/image-generation/{modelIdentifier}"]
        : [route],
    );
    // The live streams are there too, with text/event-stream answers (the registry's streamOperations).
    const streams = new Set(streamOperations.map((operation) => operation.path));
    expect(expanded.filter((route) => streams.has(route)).sort()).toEqual([...streams].sort());
    for (const route of expanded) expect(Object.keys(document.paths), route).toContain(route);
  });

  it("has the 17 routes, the 2 streams and the download with their scopes", () => {
    const scopeTable: Record<string, string[]> = {
      "generation:write": ["POST /v1/generate/image/{model_identifier}", "POST /v1/generate/video/{model_identifier}"],
      "generation:read": [
        "GET /v1/content/{generation_id}",
        "GET /v1/content/list",
        "GET /v1/content/{generation_id}/events",
        "GET /v1/content/events",
      ],
      "generation:delete": ["DELETE /v1/content/{generation_id}", "POST /v1/content/generation/cancel/{generation_id}"],
      "account:read": ["GET /v1/status", "GET /v1/usage", "GET /v1/usage/export", "GET /v1/user/account", "GET /v1/user/billing"],
      "health:read": [
        "GET /v1/health/inference/providers",
        "GET /v1/health/inference/models",
        "GET /v1/health/storage",
        "GET /v1/health/cache",
      ],
      "library:read": ["GET /v1/library/providers", "GET /v1/library/models", "GET /v1/estimate/{model_identifier}"],
    };
    expect(Object.keys(scopeTable).sort()).toEqual([...apiKeyScopes].sort());
    const documented: Record<string, string[]> = {};
    for (const { route, method, operation } of operations()) {
      if (operation.deprecated || route.endsWith("/openapi.json")) continue;
      (documented[operation["x-required-scope"]] ??= []).push(`${method.toUpperCase()} ${route}`);
    }
    for (const scope of apiKeyScopes) expect(documented[scope]?.sort(), scope).toEqual(scopeTable[scope]?.sort());
    expect(v1Operations).toHaveLength(17);
    expect(eventStreamOperations).toHaveLength(2);
    expect(downloadFileOperations).toHaveLength(1);
  });

  it("documents the usage export as a text/csv attachment whose rows are components, per format", () => {
    const operation = document.paths["/v1/usage/export"]?.get as Json;
    expect(operation["x-required-scope"]).toBe("account:read");
    const parameters = (operation.parameters as Json[]).map((parameter) => deref(parameter));
    expect(parameters.map((parameter) => [parameter.name, parameter.required === true])).toEqual([
      ["from", true],
      ["to", false],
      ["format", false],
    ]);
    const ok = deref(operation.responses["200"]);
    expect(Object.keys(ok.content)).toEqual(["text/csv"]);
    expect(ok.content["text/csv"]["x-rows"]).toEqual({
      csv: { $ref: "#/components/schemas/UsageExportRow" },
      focus: { $ref: "#/components/schemas/UsageExportFocusRow" },
    });
    expect(ok.headers["Content-Disposition"]).toBeDefined();
    expect(ok.headers["X-RateLimit-Remaining"]).toBeDefined();
    expect(Object.keys((document.components.schemas as Json).UsageExportRow.properties)).toEqual([
      "date",
      "api_key_id",
      "api_key_name",
      "model",
      "provider",
      "generations",
      "succeeded",
      "failed",
      "canceled",
      "estimated_cost",
    ]);
    expect(Object.keys((document.components.schemas as Json).UsageExportFocusRow.properties)).toContain("BilledCost");
    expect(deref(operation.responses["400"]).content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorResponse" });
  });

  it("counts the creates toward the generation bucket and everything else toward the general one", () => {
    for (const entry of allOperations) expect(entry.bucket).toBe(entry.body ? "generation" : "general");
  });

  it("lists the legacy forms and the /api/v1 base as deprecated aliases with the same shapes", () => {
    const legacy = [
      "GET /v1/list/image",
      "GET /v1/image-generation/{generation_id}",
      "GET /v1/health/providers",
      "GET /v1/data/account",
      "GET /v1/data/list/image",
      "POST /v1/image-generation/{modelIdentifier}",
    ];
    const aliases = new Map(legacyOperations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]));
    for (const form of legacy) {
      expect(aliases.has(form), form).toBe(true);
      expect(aliases.has(form.replace(" /v1/", " /api/v1/")), form).toBe(true);
    }
    for (const entry of v1Operations) expect(aliases.has(`${entry.method.toUpperCase()} /api${entry.path}`), entry.path).toBe(true);
    for (const entry of legacyOperations) {
      const [method, route] = (entry.aliasOf ?? "").split(" ") as [string, string];
      const modern = document.paths[route]?.[method.toLowerCase() as "get"] as Json;
      const alias = document.paths[entry.path]?.[entry.method] as Json;
      expect(modern, entry.aliasOf).toBeDefined();
      expect(alias.deprecated).toBe(true);
      expect(alias.responses).toEqual(modern.responses);
      expect(alias.requestBody).toEqual(modern.requestBody);
      expect(alias["x-required-scope"]).toBe(modern["x-required-scope"]);
    }
  });

  it("mentions every error code of the table, with its status, and uses the route-level ones", () => {
    expect(document.components.schemas.ErrorCode).toMatchObject({ enum: Object.keys(errorTable) });
    for (const [code, entry] of Object.entries(errorTable)) {
      const example = document.components.examples[code] as Json;
      expect(example.summary).toContain(`HTTP ${entry.status}`);
      expect(errorEnvelopeSchema.parse(example.value)).toEqual(example.value);
      expect(example.value.error).toMatchObject({ code, type: entry.type, retryable: entry.retryable });
    }
    const used = new Set(
      collectRefs(document.paths)
        .flatMap((ref) => collectRefs(resolvePointer(ref)))
        .filter((ref) => ref.startsWith("#/components/examples/"))
        .map((ref) => ref.split("/").pop()),
    );
    const routeLevel = [
      "ERR1001",
      "ERR1002",
      "ERR1003",
      "ERR1004",
      "ERR1005",
      "ERR1006",
      "ERR1007",
      "ERR1009",
      "ERR1010",
      "ERR1011",
      "ERR1012",
      "ERR2014",
      "ERR2015",
      "ERR2016",
      "ERR5000",
    ];
    for (const code of routeLevel) expect(used.has(code), code).toBe(true);
  });

  it("documents the route-specific errors", () => {
    const codesOf = (route: string, method: "get" | "post" | "delete") => {
      const operation = document.paths[route]?.[method] as Json;
      return Object.values(operation.responses as Record<string, Json>).flatMap((response) =>
        Object.keys(deref(response).content["application/json"].examples ?? {}),
      );
    };
    expect(codesOf("/v1/usage", "get")).toContain("ERR1001");
    expect(codesOf("/v1/estimate/{model_identifier}", "get")).toEqual(expect.arrayContaining(["ERR1001", "ERR1012"]));
    for (const kind of ["image", "video"]) {
      expect(codesOf(`/v1/generate/${kind}/{model_identifier}`, "post")).toEqual(
        expect.arrayContaining(["ERR1001", "ERR1004", "ERR1009", "ERR1011", "ERR1012", "ERR2014", "ERR2015", "ERR2016"]),
      );
    }
    expect(codesOf("/v1/content/{generation_id}", "get")).toContain("ERR1006");
    expect(codesOf("/v1/content/{generation_id}", "delete")).toContain("ERR1006");
    expect(codesOf("/v1/content/generation/cancel/{generation_id}", "post")).toEqual(expect.arrayContaining(["ERR1006", "ERR1010"]));
    expect(codesOf("/v1/content/list", "get")).toContain("ERR1001");
  });

  it("documents the query bounds", () => {
    const query = (route: string) =>
      Object.fromEntries(
        ((document.paths[route]?.get as Json).parameters as Json[])
          .filter((parameter) => parameter.in === "query")
          .map((parameter) => [parameter.name, parameter.schema]),
      );
    expect(query("/v1/usage").days).toEqual({ type: "integer", minimum: 1, maximum: 90, default: 30 });
    expect(query("/v1/content/list")).toEqual({
      limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
      offset: { type: "integer", minimum: 0, default: 0 },
      starting_after: { type: "string", format: "uuid" },
    });
    expect(query("/v1/estimate/{model_identifier}").count).toEqual({ type: "integer", default: 1 });
  });

  it("takes an optional Idempotency-Key with its pattern on the creates, and says when a response is a replay", () => {
    const idempotencyKey = resolvePointer("#/components/parameters/IdempotencyKey") as Json;
    expect(idempotencyKey).toMatchObject({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      schema: { type: "string", pattern: "^[A-Za-z0-9_\\-:.]{1,255}$" },
    });
    for (const { route, operation } of operations()) {
      const takesKey = (operation.parameters ?? []).some((parameter: Json) => parameter.$ref === "#/components/parameters/IdempotencyKey");
      expect(takesKey, route).toBe(Boolean(operation.requestBody));
      if (takesKey) expect(deref(operation.responses["202"]).headers["Idempotency-Replayed"]).toBeDefined();
    }
  });
});

describe("the create body", () => {
  const schemas = document.components.schemas as Record<string, Json>;

  it("refuses unknown fields in the per-kind and per-model schemas", () => {
    for (const name of ["GenerationRequestImage", "GenerationRequestVideo", ...listModels().map(modelRequestComponentName)]) {
      expect(schemas[name]?.additionalProperties, name).toBe(false);
      expect(Object.keys(schemas[name]?.properties ?? {})).not.toContain("generation_unknown");
    }
    expect(mediaKindRequestSchema("image").safeParse({ generation_prompt: "a fox", generation_unknown: 1 }).success).toBe(false);
    expect(
      mediaKindRequestSchema("video").safeParse({ generation_prompt: "a fox", generation_duration: 4, generation_unknown: 1 }).success,
    ).toBe(false);
  });

  it("lists only the fields each model supports, with its allowed values", () => {
    for (const model of listModels()) {
      const schema = schemas[modelRequestComponentName(model)] as Json;
      expect(schema.title ?? model.identifier).toBe(model.identifier);
      expect(schema.properties.generation_ratio.enum).toEqual([...model.ratios]);
      expect(schema.properties.generation_output_number.maximum).toBe(model.maxOutputs);
      expect("generation_duration" in schema.properties).toBe(model.type === "video");
      expect("generation_input_file" in schema.properties).toBe(model.inputFiles !== null);
      expect(schema.required.includes("generation_prompt")).toBe(model.promptRequired);
    }
  });

  it("maps every model of the kind to its schema in x-darkroom-models, with an example that passes it", () => {
    for (const kind of ["image", "video"] as const) {
      const body = (document.paths[`/v1/generate/${kind}/{model_identifier}`]?.post as Json).requestBody;
      const models = listModels().filter((model) => model.type === kind);
      expect(Object.keys(body["x-darkroom-models"])).toEqual(models.map((model) => model.identifier));
      for (const model of models) {
        expect(resolvePointer(body["x-darkroom-models"][model.identifier].$ref)).toBeDefined();
        const example = exampleGenerationBody(model.identifier);
        expect(generationRequestSchema(model).safeParse(example).success, model.identifier).toBe(true);
        expect(mediaKindRequestSchema(kind).safeParse(example).success, model.identifier).toBe(true);
      }
    }
  });

  it("accepts in the per-kind schema every body a model accepts", () => {
    for (const model of listModels()) {
      const full = {
        ...exampleGenerationBody(model.identifier),
        generation_output_format: model.formats.at(-1),
        generation_output_number: model.maxOutputs,
        generation_provider_order: "fastest",
        ...(model.inputFiles
          ? { generation_input_file: Array.from({ length: model.inputFiles.max }, (_, index) => `https://example.com/${index}.png`) }
          : {}),
        ...(model.type === "video"
          ? { generation_duration: model.durations.at(-1), generation_resolution: model.resolutions.at(-1)?.id }
          : {}),
      };
      expect(generationRequestSchema(model).safeParse(full).success, model.identifier).toBe(true);
      expect(mediaKindRequestSchema(model.type).safeParse(full).success, model.identifier).toBe(true);
    }
  });
});

describe("the OpenAPI document: live streams", () => {
  const streamOf = (route: string) => document.paths[route]?.get as Json;
  const itemSchema = (operation: Json) => operation.responses["200"].content["text/event-stream"]["x-item-schema"] as { oneOf: Json[] };
  const eventsOf = (operation: Json): Record<string, Json> =>
    Object.fromEntries(itemSchema(operation).oneOf.map((member) => [member.properties.event.const, member]));

  it("lists both streams: text/event-stream, Last-Event-ID and last_event_id, model_identifier on the account stream", () => {
    for (const route of ["/v1/content/{generation_id}/events", "/v1/content/events"]) {
      const operation = streamOf(route);
      expect(operation["x-required-scope"], route).toBe("generation:read");
      expect(Object.keys(operation.responses["200"].content)).toEqual(["text/event-stream"]);
      const parameters = (operation.parameters as Json[]).map(deref);
      expect(parameters.find((parameter) => parameter.in === "header")).toMatchObject({ name: "Last-Event-ID", required: false });
      expect(parameters.find((parameter) => parameter.name === "last_event_id")).toMatchObject({ in: "query", required: false });
    }
    expect(
      (streamOf("/v1/content/events").parameters as Json[]).map(deref).find((parameter) => parameter.name === "model_identifier"),
    ).toMatchObject({ in: "query", required: false });
    expect(
      (streamOf("/v1/content/{generation_id}/events").parameters as Json[]).map(deref).map((parameter) => parameter.name),
    ).not.toContain("model_identifier");
  });

  it("names each event and the schema of its data, and marks the terminal ones on the generation's stream", () => {
    const record = { $ref: "#/components/schemas/GenerationRecord" };
    const generation = eventsOf(streamOf("/v1/content/{generation_id}/events"));
    const account = eventsOf(streamOf("/v1/content/events"));
    // Only the account stream resets; a generation's stream resumed too far back starts with a new snapshot.
    expect(Object.keys(generation)).toEqual([
      "generation.snapshot",
      "generation.processing",
      "generation.attempt",
      "generation.completed",
      "generation.failed",
      "generation.canceled",
    ]);
    expect(Object.keys(account)).toEqual([
      "generation.created",
      "generation.processing",
      "generation.attempt",
      "generation.completed",
      "generation.failed",
      "generation.canceled",
      "stream.reset",
    ]);
    for (const [name, member] of [...Object.entries(generation), ...Object.entries(account)]) {
      expect(member.properties.data.contentMediaType, name).toBe("application/json");
      expect(resolvePointer(member.properties.data.contentSchema.$ref), name).toBeDefined();
      // Every event has an id, but a resume snapshot may come without one.
      expect(member.required, name).toEqual(name === "generation.snapshot" ? ["event", "data"] : ["event", "id", "data"]);
    }
    expect(generation["generation.snapshot"]?.properties.data.contentSchema).toEqual(record);
    expect(account["generation.created"]?.properties.data.contentSchema).toEqual(record);
    expect(generation["generation.attempt"]?.properties.data.contentSchema).toEqual({
      $ref: "#/components/schemas/GenerationAttemptEvent",
    });
    expect(generation["generation.canceled"]?.properties.data.contentSchema).toEqual({
      $ref: "#/components/schemas/GenerationCanceledEvent",
    });
    expect(account["stream.reset"]?.properties.data.contentSchema).toEqual({ $ref: "#/components/schemas/StreamResetEvent" });
    const ending = (events: Record<string, Json>) => Object.keys(events).filter((name) => events[name]?.["x-ends-stream"] === true);
    expect(ending(generation)).toEqual(["generation.completed", "generation.failed", "generation.canceled"]);
    expect(ending(account)).toEqual([]);
  });

  it("answers errors before the stream in the envelope: ERR1001, 1002, 1003, 1005, 1009, 3001 on both, ERR1006 on the generation's", () => {
    const codesOf = (route: string) =>
      Object.entries(streamOf(route).responses as Record<string, Json>)
        .filter(([status]) => !status.startsWith("2"))
        .flatMap(([, response]) => Object.keys(deref(response).content["application/json"].examples));
    const common = ["ERR1001", "ERR1002", "ERR1003", "ERR1005", "ERR1007", "ERR1009", "ERR3001", "ERR5000"];
    expect(codesOf("/v1/content/{generation_id}/events").sort()).toEqual([...common, "ERR1006"].sort());
    expect(codesOf("/v1/content/events").sort()).toEqual(common.sort());
  });

  it("parses what the server sends with the event schemas", () => {
    const attempt = {
      generation_id: "6f1c2a4e-8b3d-4c5e-9f7a-0b1c2d3e4f5a",
      provider: "local",
      attempt: 1,
      outcome: "failed",
      error_code: "ERR4002",
    };
    expect(generationAttemptEventSchema.parse(attempt)).toEqual(attempt);
    expect(generationAttemptEventSchema.parse({ ...attempt, outcome: "started", error_code: undefined })).toMatchObject({
      outcome: "started",
    });
    expect(generationAttemptEventSchema.safeParse({ ...attempt, outcome: "running" }).success).toBe(false);
  });
});

describe("the zod schemas against real responses", () => {
  it("parse shapeLibraryModel for every catalog model unchanged", () => {
    const configured = new Set<string>(listProviders().map((provider) => provider.id));
    const models = listModels().map((model, index) =>
      shapeLibraryModel(model, {
        configured,
        disabled: index % 2 === 0 ? NOTHING_DISABLED : { models: new Set([model.identifier]), providers: new Set() },
      }),
    );
    for (const model of models) expect(libraryModelSchema.parse(model)).toEqual(model);
    const data = { models_total: models.length, models };
    expect(libraryModelsSchema.parse(data)).toEqual(data);
  });

  it("parse shapeLibraryProvider for every provider, configured or not", () => {
    for (const configured of [new Set<string>(), new Set(listProviders().map((provider) => provider.id))]) {
      const providers = listProviders().map((provider, index) =>
        shapeLibraryProvider(provider, configured, undefined, new Set(index % 3 === 0 ? [provider.id] : [])),
      );
      const data = { providers_total: providers.length, providers };
      expect(libraryProvidersSchema.parse(data)).toEqual(data);
    }
  });

  it("parse provider and model health", () => {
    const statuses = ["healthy", "recovering", "degraded", "unknown"] as const;
    const providersHealth: ProvidersHealth = {
      service: "providers",
      healthy: false,
      providers_total: listProviders().length,
      providers: listProviders().map((provider, index) => ({
        provider: provider.id,
        status: statuses[index % statuses.length] ?? "healthy",
        status_reason: "failure rate 0.25 over 8 attempts",
        available: index % 2 === 0,
        failure_rate: 0.25,
        window: { total_attempts: 8, failures: 2, successes: 6, duration_seconds: 900 },
      })),
    };
    // Every health answer also carries the operator's pause.
    const paused: ServicePauseFields = { service_paused: true, service_paused_reason: "maintenance" };
    expect(providersHealthSchema.parse({ ...providersHealth, ...paused })).toEqual({ ...providersHealth, ...paused });
    const figures = new Map(
      listModels().map((model) => [
        figuresKey(model.identifier, model.providers[0]),
        { attempts: 3, succeeded: 2, failed: 1, p50LatencyMs: 840, lastErrorCode: "ERR4002", lastErrorAt: new Date() },
      ]),
    );
    const modelsHealth = {
      ...shapeModelHealth(providersHealth, { configured: new Set(["local"]), disabled: NOTHING_DISABLED, figures }),
      ...paused,
    };
    expect(modelsHealthSchema.parse(modelsHealth)).toEqual(modelsHealth);
    const storage = {
      service: "storage",
      healthy: true,
      latency_ms: 1.5,
      bucket: "local:.data/files",
      driver: "local-disk",
      service_paused: false,
      service_paused_reason: null,
    } satisfies StorageHealth & ServicePauseFields;
    expect(storageHealthSchema.parse(storage)).toEqual(storage);
    const cache = { service: "redis", healthy: false, latency_ms: 3000.2, backend: "postgres", ...paused } satisfies CacheHealth &
      ServicePauseFields;
    expect(cacheHealthSchema.parse(cache)).toEqual(cache);
    expect(() => cacheHealthSchema.parse({ service: "redis", healthy: false, latency_ms: 1, backend: "postgres" })).toThrow();
  });

  it("parse the success and error envelopes the server writes", () => {
    const requestId = "0b9e3c1d-2f4a-4b6c-8d7e-1a2b3c4d5e6f";
    const data = { models_total: 0, models: [] };
    const body = JSON.parse(JSON.stringify(successBody(data, { requestId })));
    expect(successEnvelopeSchema(responseComponents.LibraryModelList).parse(body)).toEqual(body);
    const page = JSON.parse(
      JSON.stringify(
        successBody({ generations: [] }, { requestId, pagination: { total: 0, limit: 50, offset: 0, has_more: false, next_cursor: null } }),
      ),
    );
    expect(paginatedEnvelopeSchema(responseComponents.GenerationList).parse(page)).toEqual(page);
    for (const code of Object.keys(errorTable) as ErrorCode[]) {
      const error = JSON.parse(JSON.stringify(errorBody(new ApiError(code), requestId)));
      expect(errorEnvelopeSchema.parse(error)).toEqual(error);
    }
    const invalid = JSON.parse(
      JSON.stringify(errorBody(new ApiError("ERR1001", "bad", { fields: [{ field: "days", message: "must be an integer" }] }), requestId)),
    );
    expect(errorEnvelopeSchema.parse(invalid)).toEqual(invalid);
  });

  it("parse a generation record in each state", () => {
    const base = {
      account_id: "0b9e3c1d-2f4a-4b6c-8d7e-1a2b3c4d5e6f",
      generation_id: "6f1c2a4e-8b3d-4c5e-9f7a-0b1c2d3e4f5a",
      model_identifier: "darkroom/lumen-image",
      generation_status: "pending",
      generation_prompt: "a fox",
      generation_ratio: "1:1",
      generation_output_format: "png",
      generation_output_number: 1,
      generation_provider_order: ["local", "local-backup"],
      generation_created_at: "2026-01-31T12:00:00.000Z",
      generation_input_file: [],
      generation_output_file: [],
      generation_output_location: [],
      generation_output_link_expires_at: [],
      generation_output_expires_at: null,
      generation_provider_used: null,
      generation_prediction_id: null,
      generation_started_at: null,
      generation_completed_at: null,
      generation_metrics_total_time: null,
      generation_metrics_predict_time: null,
      generation_deadline_at: null,
      generation_error: null,
      generation_error_code: null,
    };
    const record = responseComponents.GenerationRecord;
    expect(record.parse(base)).toEqual(base);
    const succeeded = {
      ...base,
      generation_status: "succeeded",
      generation_output_file: ["https://api.example.test/files/a.png?sig=x"],
      generation_output_location: ["darkroom"],
      generation_output_link_expires_at: ["2026-11-01T13:00:00.000Z"],
      generation_output_expires_at: "2026-11-01T13:00:00.000Z",
      generation_provider_used: "local",
      generation_prediction_id: "p1",
      generation_started_at: base.generation_created_at,
      generation_completed_at: base.generation_created_at,
      generation_metrics_total_time: 1.2,
      generation_metrics_predict_time: 0.8,
      generation_removed: "true",
    };
    expect(record.parse(succeeded)).toEqual(succeeded);
    expect(record.safeParse({ ...base, generation_removed: true }).success).toBe(false);
    expect(
      record.safeParse({ ...base, generation_status: "failed", generation_error: "timeout", generation_error_code: "ERR4001" }).success,
    ).toBe(true);
    const atDeadline = {
      ...base,
      generation_status: "canceled",
      generation_deadline_at: base.generation_created_at,
      generation_error: "deadline",
      generation_error_code: "ERR4006",
    };
    expect(record.parse(atDeadline)).toEqual(atDeadline);
  });
});

describe("the query schemas", () => {
  const attempt = (run: () => unknown) => {
    try {
      return { value: run() };
    } catch (error) {
      const apiError = error as ApiError;
      return { code: apiError.code, message: apiError.message, details: apiError.details };
    }
  };

  it("read days, limit and offset as plain integers within their bounds, naming the parameter", () => {
    const bounded = (name: string, bounds: string) => ({
      code: "ERR1001",
      message: `${name} must be ${bounds}.`,
      details: { fields: [{ field: name, message: `must be ${bounds}` }] },
    });
    const notInteger = (name: string) => ({
      code: "ERR1001",
      message: `${name} must be an integer.`,
      details: { fields: [{ field: name, message: "must be an integer" }] },
    });
    const expected: Record<string, (name: string, fallback: number, bounds: string) => unknown> = {
      "": (_name, fallback) => ({ value: fallback }),
      " 7 ": () => ({ value: 7 }),
      "007": () => ({ value: 7 }),
      abc: (name) => notInteger(name),
      "1.5": (name) => notInteger(name),
      "1e1": (name) => notInteger(name),
      "-1": (name, _fallback, bounds) => bounded(name, bounds),
    };
    for (const [raw, outcome] of Object.entries(expected)) {
      expect(
        attempt(() => parseQuery(usageQuerySchema, new URLSearchParams({ days: raw })).days),
        `days=${raw}`,
      ).toEqual(outcome("days", 30, "between 1 and 90"));
      expect(
        attempt(() => parseQuery(contentListQuerySchema, new URLSearchParams({ limit: raw })).limit),
        `limit=${raw}`,
      ).toEqual(outcome("limit", 50, "between 1 and 100"));
      // Absent stays absent (the handler applies 0), so it can be told from an offset sent beside starting_after.
      expect(
        attempt(() => parseQuery(contentListQuerySchema, new URLSearchParams({ offset: raw })).offset),
        `offset=${raw}`,
      ).toEqual(raw === "" ? { value: undefined } : outcome("offset", 0, "at least 0"));
    }
    for (const raw of ["0", "91"])
      expect(attempt(() => parseQuery(usageQuerySchema, new URLSearchParams({ days: raw })))).toEqual(bounded("days", "between 1 and 90"));
    for (const raw of ["1", "30", "90"]) expect(parseQuery(usageQuerySchema, new URLSearchParams({ days: raw })).days).toBe(Number(raw));
    expect(parseQuery(usageQuerySchema, new URLSearchParams())).toEqual({ days: 30 });
    expect(parseQuery(contentListQuerySchema, new URLSearchParams("limit=10"))).toEqual({ limit: 10 });
    expect(attempt(() => parseQuery(contentListQuerySchema, new URLSearchParams("offset=-1")))).toMatchObject({
      code: "ERR1001",
      details: { fields: [{ field: "offset" }] },
    });
  });

  it("read starting_after as a generation id, never beside offset", () => {
    const id = "6f1c2a4e-8b3d-4c5e-9f7a-0b1c2d3e4f5a";
    expect(parseQuery(contentListQuerySchema, new URLSearchParams({ starting_after: id, limit: "5" }))).toEqual({
      limit: 5,
      starting_after: id,
    });
    expect(parseQuery(contentListQuerySchema, new URLSearchParams({ starting_after: " " }))).toEqual({ limit: 50 });
    expect(attempt(() => parseQuery(contentListQuerySchema, new URLSearchParams({ starting_after: "gen_123" })))).toEqual({
      code: "ERR1001",
      message: "starting_after must be a generation id.",
      details: { fields: [{ field: "starting_after", message: "must be a generation id" }] },
    });
    for (const offset of ["0", "10"])
      expect(attempt(() => parseQuery(contentListQuerySchema, new URLSearchParams({ starting_after: id, offset })))).toEqual({
        code: "ERR1001",
        message: "starting_after cannot be combined with offset.",
        details: {
          fields: [
            { field: "starting_after", message: "cannot be combined with offset" },
            { field: "offset", message: "cannot be combined with starting_after" },
          ],
        },
      });
  });

  it("clamp the estimate count and read the video options", () => {
    expect(parseQuery(estimateQuerySchema, new URLSearchParams("count=500"))).toMatchObject({ count: 100 });
    expect(parseQuery(estimateQuerySchema, new URLSearchParams("count=0"))).toMatchObject({ count: 1 });
    expect(parseQuery(estimateQuerySchema, new URLSearchParams())).toEqual({ count: 1 });
    expect(parseQuery(estimateQuerySchema, new URLSearchParams("duration=6&resolution=720p&audio=TRUE"))).toEqual({
      count: 1,
      duration: 6,
      resolution: "720p",
      audio: true,
    });
    expect(attempt(() => parseQuery(estimateQuerySchema, new URLSearchParams("count=abc")))).toMatchObject({
      code: "ERR1001",
      details: { fields: [{ field: "count" }] },
    });
    expect(attempt(() => parseQuery(estimateQuerySchema, new URLSearchParams("audio=maybe")))).toMatchObject({
      code: "ERR1001",
      details: { fields: [{ field: "audio" }] },
    });
  });
});

import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { v1Operations } from "@/server/http/openapi/routes";
import { errorEnvelopeSchema, paginatedEnvelopeSchema, responseComponents, successEnvelopeSchema } from "@/server/contract/index";
import { api, baseUrl, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";

// GET /v1/openapi.json is public; and the running routes answer what the document says.

type Document = { openapi: string; info: { title: string }; servers: Array<{ url: string }>; paths: Record<string, unknown> };

describe("GET /v1/openapi.json", () => {
  it("serves the OpenAPI 3.1 document without an API key", async () => {
    const reply = await api("/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("application/json");
    expect(reply.headers.get("cache-control")).toContain("max-age=60");
    expect(reply.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const document = reply.body as Document;
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toBe("Darkroom API");
    expect(document.servers[0]?.url).toBe(new URL(baseUrl()).origin);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/v1/status", "/v1/generate/image/{model_identifier}", "/v1/openapi.json"]));
  });

  it("is served under the legacy /api/v1 base too", async () => {
    const reply = await api("/api/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect((reply.body as Document).openapi).toBe("3.1.0");
  });

  it("answers other methods with ERR1008 in the error envelope", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const reply = await api("/v1/openapi.json", { method, body: {} });
      const error = expectError(reply, "ERR1008");
      expect(reply.headers.get("allow")).toBe("GET");
      expect(error.details).toEqual({ allowed_methods: ["GET"] });
      expect(errorEnvelopeSchema.parse(reply.body)).toEqual(reply.body);
    }
  });
});

describe("the served routes match the document's schemas", () => {
  // Every implemented read route, with the query that exercises its widest shape.
  const calls: Array<[operationId: string, path: string]> = [
    ["getStatus", "/v1/status"],
    ["getUsage", "/v1/usage?days=7"],
    ["getAccount", "/v1/user/account"],
    ["getBilling", "/v1/user/billing"],
    ["getEstimate", "/v1/estimate/darkroom/lumen-image?count=3"],
    ["getEstimate", "/v1/estimate/darkroom/lumen-video?duration=6&resolution=720p&audio=true"],
    ["listModels", "/v1/library/models"],
    ["listProviders", "/v1/library/providers"],
    ["getProviderHealth", "/v1/health/inference/providers"],
    ["getModelHealth", "/v1/health/inference/models"],
    ["getStorageHealth", "/v1/health/storage"],
    ["getCacheHealth", "/v1/health/cache"],
  ];

  it.each(calls)("%s: %s", async (operationId, path) => {
    const operation = v1Operations.find((entry) => entry.operationId === operationId);
    if (!operation) throw new Error(`undocumented ${operationId}`);
    const { key } = await accountWithKey();
    const reply = await api(path, { key });
    expectSuccess(reply, operation.success.status);
    const data: z.ZodType = responseComponents[operation.success.data];
    const envelope = operation.success.paginated ? paginatedEnvelopeSchema(data) : successEnvelopeSchema(data);
    // Parsing drops unknown keys, so equality also catches fields the document does not name.
    expect(envelope.parse(reply.body)).toEqual(reply.body);
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(reply.headers.get(header), header).toMatch(/^\d+$/);
  });

  it("refuses a missing key with the documented error envelope", async () => {
    const reply = await api("/v1/status");
    expectError(reply, "ERR1002");
    expect(errorEnvelopeSchema.parse(reply.body)).toEqual(reply.body);
  });
});

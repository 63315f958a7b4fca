import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { v1Operations } from "@/server/edge/http/openapi/routes";
import {
  errorEnvelopeSchema,
  paginatedEnvelopeSchema,
  responseComponents,
  successEnvelopeSchema,
  type ResponseComponentName,
} from "@/server/edge/contract/index";
import { api, baseUrl, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { openSse, type SseEvent } from "@/tests/support/sse-client";

// GET /v1/openapi.json is public; and the running routes (the live streams included) answer what
// the document says.

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
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/v1/status",
        "/v1/generate/image/{model_identifier}",
        "/v1/openapi.json",
        "/v1/content/{generation_id}/events",
        "/v1/content/events",
      ]),
    );
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
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
      expect(reply.headers.get(header), header).toMatch(/^\d+$/);
  });

  it("refuses a missing key with the documented error envelope", async () => {
    const reply = await api("/v1/status");
    expectError(reply, "ERR1002");
    expect(errorEnvelopeSchema.parse(reply.body)).toEqual(reply.body);
  });
});

describe("the live streams match the document", () => {
  type Member = {
    properties: { event: { const: string }; data: { contentSchema: { $ref: string } } };
    required: string[];
    "x-ends-stream"?: boolean;
  };
  const membersOf = (document: Record<string, any>, route: string): Record<string, Member> =>
    Object.fromEntries(
      (document.paths[route].get.responses["200"].content["text/event-stream"]["x-item-schema"].oneOf as Member[]).map((member) => [
        member.properties.event.const,
        member,
      ]),
    );

  it("sends only the events the document names, each data exactly its documented schema, ids where it says", async () => {
    const document = (await api("/v1/openapi.json")).body as Record<string, any>;
    const { key } = await accountWithKey();
    const account = await openSse("/v1/content/events", { key });
    const created = await createImage(key, { generation_prompt: "documented", generation_provider_order: "local" });
    const generationId = expectSuccess(created, 202).generation_id as string;
    const own = await openSse(`/v1/content/${generationId}/events`, { key });
    expect(own.headers.get("content-type")).toContain("text/event-stream");
    await own.ended;
    await account.waitFor(
      (event) => event.event === "generation.completed" && (event.data as { generation_id: string }).generation_id === generationId,
    );
    account.close();

    const check = (route: string, events: SseEvent[]) => {
      const members = membersOf(document, route);
      expect(events.length, route).toBeGreaterThan(2);
      for (const event of events) {
        const member = members[event.event];
        expect(member, `${route}: ${event.event}`).toBeDefined();
        const component = member?.properties.data.contentSchema.$ref.split("/").pop() as ResponseComponentName;
        // Parsing drops unknown keys, so equality also catches fields the document does not name.
        expect(responseComponents[component].parse(event.data), `${route}: ${event.event}`).toEqual(event.data);
        if (member?.required.includes("id")) expect(event.id, `${route}: ${event.event}`).toEqual(expect.any(String));
      }
      return members;
    };
    const members = check("/v1/content/{generation_id}/events", own.events);
    expect(own.events[0]?.event).toBe("generation.snapshot");
    expect(members[own.events.at(-1)?.event ?? ""]?.["x-ends-stream"]).toBe(true);
    check("/v1/content/events", account.events);
    expect(account.events.map((event) => event.event)).toContain("generation.created");
  });

  it("refuses before the stream in the documented envelope", async () => {
    const document = (await api("/v1/openapi.json")).body as Record<string, any>;
    const responses = document.paths["/v1/content/{generation_id}/events"].get.responses as Record<string, unknown>;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(["200", "400", "401", "404", "429"]));
    const { key } = await accountWithKey();
    const missing = await openSse("/v1/content/00000000-0000-4000-8000-000000000000/events", { key });
    expect(missing.status).toBe(404);
    expect(errorEnvelopeSchema.parse(missing.body)).toEqual(missing.body);
    const unauthenticated = await openSse("/v1/content/events");
    expect(unauthenticated.status).toBe(401);
    expect(errorEnvelopeSchema.parse(unauthenticated.body)).toEqual(unauthenticated.body);
  });
});

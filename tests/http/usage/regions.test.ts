import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import type { RegionName } from "@/server/base/env";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";

// One database holding two regions' traffic (npm test maps eu.localhost and jp.localhost to eu
// and jp; any other host is REGION us): usage and health answer for the region the request is
// served in, never mixed. `fastest` ranking per region: tests/integration/routing.

type Reply = { status: number; body: { data?: Record<string, unknown> & { [key: string]: unknown }; error?: { code: string } } };

/** fetch may not set Host: a plain node request does. */
function call(region: RegionName, key: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Reply> {
  const url = new URL(path, baseUrl());
  const host = region === "us" ? url.host : `${region}.localhost:${url.port}`;
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: init.method ?? "GET",
        path: `${url.pathname}${url.search}`,
        headers: { host, authorization: `Bearer ${key}`, ...(payload ? { "content-type": "application/json" } : {}) },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

type Usage = {
  usage_total_requests: number;
  usage_total_generations: number;
  usage_total_provider_submissions: number;
  usage_total_estimated_cost: number;
  usage_endpoints: Array<{ endpoint: string; total_requests: number; error_codes: Record<string, number> }>;
  usage_providers: Array<{ provider: string; used_count: number }>;
};
type ProviderEntry = { provider: string; status: string; available: boolean; window: { total_attempts: number; failures: number } };

const usageIn = async (region: RegionName, key: string) => {
  const reply = await call(region, key, "/v1/usage?days=1");
  expect(reply.status).toBe(200);
  return reply.body.data as unknown as Usage;
};
const endpointsOf = (usage: Usage) => Object.fromEntries(usage.usage_endpoints.map((entry) => [entry.endpoint, entry.total_requests]));
const providersIn = async (region: RegionName, key: string) => {
  const reply = await call(region, key, "/v1/health/inference/providers");
  expect(reply.status).toBe(200);
  return Object.fromEntries((reply.body.data!.providers as ProviderEntry[]).map((entry) => [entry.provider, entry]));
};

let accountId: string;
const keys = {} as Record<RegionName, string>;

beforeAll(async () => {
  ({ accountId } = await createTestAccount({ region: "us" }));
  for (const region of ["us", "eu", "jp"] as const) keys[region] = (await createTestKey(accountId, { preset: "full", region })).key;
});

afterAll(async () => {
  await db.account.deleteMany({ where: { id: accountId } });
});

describe("GET /v1/usage per region", () => {
  it("counts each region's requests, generations and submissions apart, for one account", async () => {
    // eu: a generation run to the end, a refused estimate, and a us key refused on eu's address.
    const created = await call("eu", keys.eu, "/v1/generate/image/darkroom/lumen-image", {
      method: "POST",
      body: { generation_prompt: "a harbour in eu", generation_provider_order: "local" },
    });
    expect(created.status).toBe(202);
    const generationId = created.body.data!.generation_id as string;
    await expect
      .poll(async () => (await call("eu", keys.eu, `/v1/content/${generationId}`)).body.data?.generation_status, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe("succeeded");
    expect((await call("eu", keys.eu, "/v1/estimate/nobody/nothing")).body.error?.code).toBe("ERR1012");
    expect((await call("eu", keys.us, "/v1/status")).status).toBe(401);
    // us: one status call.
    expect((await call("us", keys.us, "/v1/status")).status).toBe(200);

    const row = await db.generation.findUniqueOrThrow({ where: { id: generationId }, select: { region: true } });
    expect(row.region).toBe("eu");

    // The request log is written after each answer: wait for the last eu line.
    await expect.poll(async () => endpointsOf(await usageIn("eu", keys.eu))["/v1/status"], { timeout: 10_000 }).toBe(1);
    const eu = await usageIn("eu", keys.eu);
    expect(eu.usage_total_generations).toBe(1);
    expect(eu.usage_total_estimated_cost).toBe(0.002);
    expect(eu.usage_total_provider_submissions).toBe(1);
    expect(eu.usage_providers.map((entry) => [entry.provider, entry.used_count])).toEqual([["local", 1]]);
    const euEndpoints = endpointsOf(eu);
    expect(euEndpoints["/v1/generate/image/{model_identifier}"]).toBe(1);
    expect(euEndpoints["/v1/content/{generation_id}"]).toBeGreaterThanOrEqual(1);
    expect(euEndpoints["/v1/estimate/{model_identifier}"]).toBe(1);
    // The refused us key was served by eu's address: eu traffic of this account.
    expect(eu.usage_endpoints.find((entry) => entry.endpoint === "/v1/status")?.error_codes).toEqual({ ERR1002: 1 });

    const us = await usageIn("us", keys.us);
    expect(us.usage_total_generations).toBe(0);
    expect(us.usage_total_provider_submissions).toBe(0);
    expect(us.usage_providers).toEqual([]);
    expect(endpointsOf(us)).toEqual({ "/v1/status": 1 });

    const jp = await usageIn("jp", keys.jp);
    expect(jp).toMatchObject({ usage_total_requests: 0, usage_total_generations: 0, usage_endpoints: [], usage_providers: [] });

    // Rows are written in batches (request-log-buffer.ts): the last usage call's row may still be on its way.
    const usRows = async () => {
      const logged = await db.requestLog.groupBy({ by: ["region"], where: { accountId }, _count: true });
      return Object.fromEntries(logged.map((group) => [group.region, group._count])).us ?? 0;
    };
    await expect.poll(usRows, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  });
});

describe("GET /v1/health/inference/* per region", () => {
  beforeAll(async () => {
    // Five failed replicate attempts in jp a minute ago: jp's replicate is down, eu's untouched.
    const generation = await db.generation.create({
      data: {
        accountId,
        region: "jp",
        mediaKind: "image",
        modelIdentifier: "black-forest-labs/flux-schnell",
        status: "failed",
        providerOrder: ["replicate"],
        estimatedCost: "0.003",
      },
    });
    const finishedAt = new Date(Date.now() - 60_000);
    await db.providerAttempt.createMany({
      data: Array.from({ length: 5 }, (_, index) => ({
        generationId: generation.id,
        accountId,
        region: "jp" as const,
        modelIdentifier: "black-forest-labs/flux-schnell",
        provider: "replicate",
        attemptNumber: index + 1,
        outcome: "failed" as const,
        errorCode: "ERR4002",
        latencyMs: 800,
        startedAt: new Date(finishedAt.getTime() - 800),
        finishedAt,
      })),
    });
  });

  it("judges providers on the attempts of the region the request is served in", async () => {
    const jp = await providersIn("jp", keys.jp);
    expect(jp.replicate).toMatchObject({ status: "degraded", available: false, window: { total_attempts: 5, failures: 5 } });
    const eu = await providersIn("eu", keys.eu);
    expect(eu.replicate).toMatchObject({ status: "healthy", available: true, window: { total_attempts: 0, failures: 0 } });
  });

  it("reports model availability from the same region's provider health", async () => {
    const schnell = async (region: RegionName) => {
      const reply = await call(region, keys[region], "/v1/health/inference/models");
      expect(reply.status).toBe(200);
      const models = reply.body.data!.models as Array<{ model_identifier: string; providers: Record<string, { available: boolean }> }>;
      return models.find((model) => model.model_identifier === "black-forest-labs/flux-schnell")!.providers;
    };
    expect((await schnell("jp")).replicate?.available).toBe(false);
    expect((await schnell("eu")).replicate?.available).toBe(true);
  });
});

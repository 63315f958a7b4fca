import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import type { AttemptOutcome, GenerationStatus } from "@/server/base/generated/prisma/client";
import type { RegionName } from "@/server/base/env";
import { ApiError } from "@/server/base/error-table";
import { accountScope } from "@/server/base/account-scope";
import { getUsage } from "@/server/usage/get-usage";
import { emptyUsage } from "@/tests/support/usage";
import { seedRequestLogs } from "@/tests/support/request-logs";

// Every row belongs to accounts made here, so other suites' data in the same database never counts.

const DAY_MS = 86_400_000;
const now = new Date();
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
const sevenDaysAgo = at(-7 * DAY_MS);

const accountIds: string[] = [];

async function createAccount(creditBalance = "0") {
  const account = await db.account.create({
    data: { name: "Usage test", email: `usage-${randomUUID()}@example.test`, creditBalance },
  });
  accountIds.push(account.id);
  return account.id;
}

async function logRequest(
  accountId: string,
  endpoint: string,
  statusCode: number,
  errorCode: string | null,
  createdAt: Date,
  region: RegionName = "us",
) {
  await seedRequestLogs([
    {
      accountId,
      region,
      requestId: randomUUID(),
      keyName: "test key",
      keyPrefix: "dkr_abcde",
      keyStatus: "active",
      method: endpoint.startsWith("/v1/generate") ? "POST" : "GET",
      endpoint,
      statusCode,
      errorCode,
      ipHash: "0".repeat(64),
      createdAt,
    },
  ]);
}

async function createGeneration(
  accountId: string,
  status: GenerationStatus,
  estimatedCost: string,
  createdAt: Date,
  region: RegionName = "us",
) {
  const generation = await db.generation.create({
    data: {
      accountId,
      region,
      mediaKind: "image",
      modelIdentifier: "black-forest-labs/flux-schnell",
      status,
      prompt: "a lighthouse",
      providerOrder: ["replicate", "fal"],
      estimatedCost,
      createdAt,
    },
  });
  return generation.id;
}

type Attempt = { provider: string; outcome: AttemptOutcome; estimatedCost: string; wasted?: boolean; startedAt?: Date };

async function recordAttempts(accountId: string, generationId: string, attempts: Attempt[], region: RegionName = "us") {
  await db.providerAttempt.createMany({
    data: attempts.map((attempt, index) => ({
      generationId,
      accountId,
      region,
      modelIdentifier: "black-forest-labs/flux-schnell",
      provider: attempt.provider,
      attemptNumber: index + 1,
      outcome: attempt.outcome,
      estimatedCost: attempt.estimatedCost,
      wasted: attempt.wasted ?? false,
      startedAt: attempt.startedAt ?? at(-DAY_MS),
      finishedAt: attempt.outcome === "running" ? null : at(-DAY_MS + 1_000),
    })),
  });
}

afterAll(async () => {
  await db.account.deleteMany({ where: { id: { in: accountIds } } });
  await disconnectDb();
});

describe("getUsage on an account with no activity", () => {
  it("is all zeros and empty lists", async () => {
    const accountId = await createAccount();
    const usage = await getUsage(db, accountScope(accountId), { days: 30, region: "us", now });
    expect(usage).toEqual(emptyUsage(accountId, 30, 0));
  });
});

describe("getUsage on an account with activity", () => {
  let accountId: string;

  beforeAll(async () => {
    accountId = await createAccount("12.345");
    const otherAccountId = await createAccount("99");

    const generate = "/v1/generate/image/{model_identifier}";
    await logRequest(accountId, "/v1/status", 200, null, at(-DAY_MS));
    await logRequest(accountId, "/v1/status", 200, null, at(-3 * DAY_MS));
    await logRequest(accountId, "/v1/status", 401, "ERR1002", at(-1.5 * DAY_MS));
    await logRequest(accountId, generate, 202, null, at(-60_000));
    await logRequest(accountId, generate, 402, "ERR1004", at(-60_000));
    await logRequest(accountId, generate, 402, "ERR1004", at(-1.5 * DAY_MS));
    await logRequest(accountId, generate, 429, "ERR1005", at(-60_000));
    await logRequest(accountId, generate, 500, "ERR5000", at(-60_000));
    await logRequest(accountId, generate, 503, "ERR3001", at(-60_000));
    // Exactly on the window's start: counted.
    await logRequest(accountId, "/v1/usage", 200, null, sevenDaysAgo);
    // Outside the window: a millisecond too old, or after `now`.
    await logRequest(accountId, "/v1/usage", 200, null, at(-7 * DAY_MS - 1));
    await logRequest(accountId, "/v1/status", 500, "ERR5000", at(1_000));
    // Another account's traffic.
    await logRequest(otherAccountId, "/v1/status", 404, "ERR1006", at(-60_000));
    // The same account in another region (one database holding two regions): never in us figures.
    await logRequest(accountId, "/v1/status", 200, null, at(-60_000), "eu");
    await logRequest(accountId, generate, 402, "ERR1004", at(-60_000), "eu");

    const succeededA = await createGeneration(accountId, "succeeded", "0.100", at(-DAY_MS));
    const succeededB = await createGeneration(accountId, "succeeded", "0.200", at(-3 * DAY_MS));
    await createGeneration(accountId, "pending", "0.003", at(-60_000));
    await createGeneration(accountId, "processing", "0.007", at(-60_000));
    await createGeneration(accountId, "failed", "0.500", at(-DAY_MS));
    await createGeneration(accountId, "canceled", "1.000", at(-DAY_MS));
    await createGeneration(accountId, "succeeded", "0.001", sevenDaysAgo);
    await createGeneration(accountId, "succeeded", "5.000", at(-7 * DAY_MS - 1));
    await createGeneration(otherAccountId, "succeeded", "3.000", at(-60_000));
    const inEu = await createGeneration(accountId, "succeeded", "2.000", at(-60_000), "eu");
    await recordAttempts(accountId, inEu, [{ provider: "openai", outcome: "succeeded", estimatedCost: "2.000" }], "eu");

    await recordAttempts(accountId, succeededA, [
      { provider: "replicate", outcome: "failed", estimatedCost: "0.200", wasted: true },
      { provider: "replicate", outcome: "failed", estimatedCost: "0.050" },
      { provider: "replicate", outcome: "discarded", estimatedCost: "0.003", wasted: true },
      { provider: "replicate", outcome: "canceled", estimatedCost: "0.010" },
      { provider: "replicate", outcome: "running", estimatedCost: "0.020" },
      { provider: "replicate", outcome: "succeeded", estimatedCost: "0.100" },
      { provider: "fal", outcome: "succeeded", estimatedCost: "0.300", startedAt: sevenDaysAgo },
      { provider: "local", outcome: "failed", estimatedCost: "1.000", wasted: true, startedAt: at(-7 * DAY_MS - 1) },
    ]);
    await recordAttempts(accountId, succeededB, [
      { provider: "fal", outcome: "succeeded", estimatedCost: "0.300", startedAt: at(-3 * DAY_MS) },
    ]);
  });

  it("counts requests, generations, submissions and money in the window", async () => {
    const usage = await getUsage(db, accountScope(accountId), { days: 7, region: "us", now });
    expect(usage).toEqual({
      account_id: accountId,
      usage_period_days: 7,
      usage_credit_balance: 12.345,
      usage_total_requests: 10,
      usage_total_success: 4,
      usage_total_client_errors: 4,
      usage_total_server_errors: 2,
      usage_total_generations: 7,
      usage_total_provider_submissions: 8,
      // 0.1 + 0.2 + 0.003 + 0.007 + 0.001 in floats would be 0.31100000000000005.
      usage_total_estimated_cost: 0.311,
      usage_endpoints: [
        {
          endpoint: "/v1/generate/image/{model_identifier}",
          total_requests: 6,
          success_count: 1,
          client_error_count: 3,
          server_error_count: 2,
          error_codes: { ERR1004: 2, ERR1005: 1, ERR3001: 1, ERR5000: 1 },
        },
        {
          endpoint: "/v1/status",
          total_requests: 3,
          success_count: 2,
          client_error_count: 1,
          server_error_count: 0,
          error_codes: { ERR1002: 1 },
        },
        { endpoint: "/v1/usage", total_requests: 1, success_count: 1, client_error_count: 0, server_error_count: 0, error_codes: {} },
      ],
      usage_providers: [
        {
          provider: "replicate",
          total_submissions: 6,
          used_count: 1,
          cancelled_count: 1,
          discarded_count: 1,
          failed_count: 2,
          total_estimated_cost: 0.383,
          wasted_estimated_cost: 0.203,
        },
        {
          provider: "fal",
          total_submissions: 2,
          used_count: 2,
          cancelled_count: 0,
          discarded_count: 0,
          failed_count: 0,
          total_estimated_cost: 0.6,
          wasted_estimated_cost: 0,
        },
      ],
    });
    // Plain JSON: no BigInt or Decimal leaks into the response.
    expect(JSON.parse(JSON.stringify(usage))).toEqual(usage);
  });

  it("counts another region's requests, generations and submissions apart", async () => {
    const eu = await getUsage(db, accountScope(accountId), { days: 7, region: "eu", now });
    expect(eu).toMatchObject({
      usage_credit_balance: 12.345,
      usage_total_requests: 2,
      usage_total_success: 1,
      usage_total_client_errors: 1,
      usage_total_generations: 1,
      usage_total_provider_submissions: 1,
      usage_total_estimated_cost: 2,
    });
    expect(eu.usage_endpoints.map((entry) => [entry.endpoint, entry.total_requests, entry.error_codes])).toEqual([
      ["/v1/generate/image/{model_identifier}", 1, { ERR1004: 1 }],
      ["/v1/status", 1, {}],
    ]);
    expect(eu.usage_providers.map((entry) => [entry.provider, entry.used_count])).toEqual([["openai", 1]]);
    expect(await getUsage(db, accountScope(accountId), { days: 7, region: "jp", now })).toEqual(emptyUsage(accountId, 7, 12.345));
  });

  it("narrows with days", async () => {
    const usage = await getUsage(db, accountScope(accountId), { days: 2, region: "us", now });
    expect(usage.usage_period_days).toBe(2);
    expect(usage.usage_total_requests).toBe(8);
    expect(usage.usage_total_success).toBe(2);
    expect(usage.usage_total_client_errors).toBe(4);
    expect(usage.usage_total_server_errors).toBe(2);
    expect(usage.usage_endpoints.map((entry) => [entry.endpoint, entry.total_requests, entry.error_codes])).toEqual([
      ["/v1/generate/image/{model_identifier}", 6, { ERR1004: 2, ERR1005: 1, ERR3001: 1, ERR5000: 1 }],
      ["/v1/status", 2, { ERR1002: 1 }],
    ]);
    expect(usage.usage_total_generations).toBe(5);
    expect(usage.usage_total_estimated_cost).toBe(0.11);
    expect(usage.usage_total_provider_submissions).toBe(6);
    expect(usage.usage_providers.map((entry) => entry.provider)).toEqual(["replicate"]);
  });

  it("moves the window with now: the start is inclusive, later rows are left out", async () => {
    // One millisecond later the rows stamped exactly seven days ago fall out.
    const usage = await getUsage(db, accountScope(accountId), { days: 7, region: "us", now: at(1) });
    expect(usage.usage_total_requests).toBe(9);
    expect(usage.usage_endpoints.find((entry) => entry.endpoint === "/v1/usage")).toBeUndefined();
    expect(usage.usage_total_generations).toBe(6);
    expect(usage.usage_total_estimated_cost).toBe(0.31);
    expect(usage.usage_providers.find((entry) => entry.provider === "fal")?.total_submissions).toBe(1);

    // A second later the request logged in the future is inside.
    const later = await getUsage(db, accountScope(accountId), { days: 7, region: "us", now: at(1_000) });
    expect(later.usage_total_server_errors).toBe(3);
    expect(later.usage_endpoints.find((entry) => entry.endpoint === "/v1/status")?.error_codes).toEqual({ ERR1002: 1, ERR5000: 1 });
  });

  it("defaults the window's end to the present", async () => {
    const usage = await getUsage(db, accountScope(accountId), { days: 7, region: "us" });
    expect(usage.usage_total_requests).toBeGreaterThanOrEqual(9);
    expect(usage.usage_total_generations).toBeGreaterThanOrEqual(6);
  });
});

describe("getUsage arguments", () => {
  it("refuses a non-positive or fractional day count", async () => {
    const accountId = await createAccount();
    await expect(getUsage(db, accountScope(accountId), { days: 0, region: "us" })).rejects.toBeInstanceOf(RangeError);
    await expect(getUsage(db, accountScope(accountId), { days: 1.5, region: "us" })).rejects.toBeInstanceOf(RangeError);
  });

  it("is ERR1006 for an unknown account", async () => {
    const error = await getUsage(db, accountScope(randomUUID()), { days: 30, region: "us" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("ERR1006");
  });
});

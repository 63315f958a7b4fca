import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";
import { cancel, createImage, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { startSecondInstance } from "@/tests/support/second-instance";

// Cloudflare Workers AI through the real /v1 API: the test app talks to the Workers AI fake that
// scripts/test.ts starts (tests/fakes/cloudflare-fake.ts); `[cloudflare:…]` prompt markers steer it.

const MODEL = "cloudflare/flux-1-schnell";

function attemptsOf(generationId: string) {
  return db.providerAttempt.findMany({
    where: { generationId },
    orderBy: { attemptNumber: "asc" },
    select: { provider: true, outcome: true, errorCode: true, errorMessage: true },
  });
}

describe("a Cloudflare Workers AI generation end to end", () => {
  it("succeeds: the base64 picture is stored and served, the attempt recorded, the credits charged", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "a red kite over dunes", generation_provider_order: "cloudflare" }, {}, MODEL),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "cloudflare" });
    expect(record.generation_prediction_id).toMatch(/^cloudflare-[0-9a-f]{32}$/);
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("jpeg");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "cloudflare", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
    expect((await ledgerOf(data.generation_id)).map((entry) => entry.split(":")[0]).sort()).toEqual(["charge", "reserve"]);
  });

  it("runs Lucid Origin at a wide ratio", async () => {
    const { key } = await accountWithKey();
    const body = {
      generation_prompt: "a poster of a kite festival",
      generation_provider_order: "cloudflare",
      generation_ratio: "16:9",
      generation_output_number: 2,
    };
    const data = expectSuccess(await createImage(key, body, {}, "leonardo/lucid-origin"), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "cloudflare" });
    expect(record.generation_output_file).toHaveLength(2);
  });

  it("fails over to FLUX.1 [schnell] on Replicate when Workers AI is out of capacity (429 3040), never to a built-in renderer", async () => {
    const { key } = await accountWithKey();
    const body = {
      generation_prompt: "a red kite [cloudflare:rate_limit]",
      generation_provider_order: "cloudflare,replicate",
      generation_output_number: 2,
    };
    const data = expectSuccess(await createImage(key, body, {}, MODEL), 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(record.generation_output_file).toHaveLength(2);
    const file = await fetch(record.generation_output_file[0]!);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe("jpeg");
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "cloudflare",
        outcome: "failed",
        errorCode: "ERR4002",
        errorMessage: "cloudflare: Out of capacity: No more data centers to forward the request to",
      },
      { provider: "replicate", outcome: "succeeded", errorCode: null, errorMessage: null },
    ]);
  });

  it("Lucid Origin runs on Workers AI alone: its outage fails the generation (ERR4004) and refunds it in full", async () => {
    const { key } = await accountWithKey();
    expectError(
      await createImage(key, { generation_prompt: "a kite", generation_provider_order: "cloudflare,local" }, {}, "leonardo/lucid-origin"),
      "ERR1001",
    );
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "a red kite [cloudflare:rate_limit]" }, {}, "leonardo/lucid-origin"),
      202,
    );
    expect(data.generation_provider_order).toEqual(["cloudflare"]);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004", generation_output_file: [] });
    expect((await attemptsOf(data.generation_id)).map((attempt) => [attempt.provider, attempt.outcome, attempt.errorCode])).toEqual([
      ["cloudflare", "failed", "ERR4002"],
    ]);
    expect(await ledgerOf(data.generation_id)).toEqual(["reserve:0.043", "refund:0.043"]);
  });

  it.each([
    ["an answer not understood", "[cloudflare:malformed]", "ERR4002", "cloudflare: the answer was not understood (no result.image)"],
    ["an oversized answer", "[cloudflare:oversized]", "ERR4003", "cloudflare: the answer is larger than the 16777216 bytes allowed"],
  ])("%s fails that attempt with a provider error naming cloudflare, and the chain moves on", async (_label, marker, code, message) => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: `a kite ${marker}`, generation_provider_order: "cloudflare,replicate" }, {}, MODEL),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect((await attemptsOf(data.generation_id))[0]).toEqual({
      provider: "cloudflare",
      outcome: "failed",
      errorCode: code,
      errorMessage: message,
    });
  });

  it("an NSFW refusal (400 3030) fails the generation at once, without failover, and refunds", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(
        key,
        { generation_prompt: "a kite [cloudflare:content_policy]", generation_provider_order: "cloudflare,replicate" },
        {},
        MODEL,
      ),
      202,
    );
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_output_file: [] });
    expect(record.generation_error).toContain("NSFW");
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "cloudflare",
        outcome: "failed",
        errorCode: "ERR4005",
        errorMessage: "cloudflare: AiError: Input prompt contains NSFW content.",
      },
    ]);
    expect((await ledgerOf(data.generation_id)).map((entry) => entry.split(":")[0]).sort()).toEqual(["refund", "reserve"]);
  });

  it("is canceled mid-call: the run call is aborted, the generation canceled and refunded", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(
      await createImage(key, { generation_prompt: "a slow kite [cloudflare:slow]", generation_provider_order: "cloudflare" }, {}, MODEL),
      202,
    );
    await waitForStatus(key, data.generation_id, ["processing"]);
    await expect.poll(async () => (await attemptsOf(data.generation_id)).length, { timeout: 10_000 }).toBe(1);
    const canceled = expectSuccess(await cancel(key, data.generation_id));
    expect(canceled).toMatchObject({ generation_status: "canceled", provider_cancel_sent: true, credits_refunded: true });
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "canceled", generation_output_file: [] });
    expect((await ledgerOf(data.generation_id)).map((entry) => entry.split(":")[0]).sort()).toEqual(["refund", "reserve"]);
  });
});

describe("the health row", () => {
  it("lists cloudflare in /v1/health/inference/providers, configured, with its attempts counted", async () => {
    const { key } = await accountWithKey();
    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    const row = health.providers.find((entry) => entry.provider === "cloudflare");
    expect(row).toBeDefined();
    expect(row?.status).not.toBe("unknown");
    expect(row?.window.total_attempts).toBeGreaterThan(0);
  });
});

describe("configuration", () => {
  it("a deployment with the token but no CLOUDFLARE_ACCOUNT_ID lists cloudflare not_configured in the library and in health", async () => {
    const { key } = await accountWithKey();
    const instance = await startSecondInstance({ CLOUDFLARE_API_TOKEN: "cf-token-without-account", CLOUDFLARE_ACCOUNT_ID: "" });
    try {
      const read = async (route: string) =>
        (
          (await (await fetch(`${instance.baseUrl}${route}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
            data: Record<string, unknown>;
          }
        ).data;
      const library = (await read("/v1/library/providers")) as { providers: Array<{ provider_id: string; provider_status: string }> };
      expect(library.providers.find((provider) => provider.provider_id === "cloudflare")?.provider_status).toBe("not_configured");
      const health = (await read("/v1/health/inference/providers")) as {
        providers: Array<{ provider: string; status: string; status_reason: string; available: boolean }>;
      };
      expect(health.providers.find((entry) => entry.provider === "cloudflare")).toMatchObject({
        status: "unknown",
        status_reason: "not configured: CLOUDFLARE_API_TOKEN or CLOUDFLARE_ACCOUNT_ID is not set",
        available: false,
      });
    } finally {
      await instance.stop();
    }
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/base/db";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";

// The accepted-then-callback path: the test server talks to a local Replicate that follows the
// published protocol (scripts/test.ts starts it). The prediction is accepted, the fake POSTs a
// signed webhook to /api/providers/replicate/callback, the run wakes, polls, downloads the output.

describe("a webhook provider end to end (Replicate protocol)", () => {
  it("runs accepted → processing → succeeded through the signed callback", async () => {
    const { key, accountId } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a red kite", generation_provider_order: "replicate" },
      {},
      "black-forest-labs/flux-schnell",
    );
    const data = expectSuccess(created, 202);
    expect(data.generation_provider_order).toEqual(["replicate"]);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(record.generation_prediction_id).toEqual(expect.any(String));
    const file = await fetch(record.generation_output_file[0]!);
    expect(file.status).toBe(200);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(["png", "jpeg", "webp"]).toContain(meta.format);
    const attempt = await db.providerAttempt.findFirstOrThrow({ where: { generationId: data.generation_id } });
    expect(attempt).toMatchObject({ provider: "replicate", outcome: "succeeded", predictionId: record.generation_prediction_id });
    expect((await db.ledgerEntry.findMany({ where: { generationId: data.generation_id } })).map((entry) => entry.type).sort()).toEqual([
      "charge",
      "reserve",
    ]);
    expect(accountId).toBeTruthy();
  });

  it("still succeeds, once, when the callback arrives before the run knows the prediction", async () => {
    // The fake ends this prediction at once and delivers its signed completion webhook before it
    // answers the create: the callback finds no attempt with that prediction id and wakes nothing.
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a blue kite [replicate:callback-first]", generation_provider_order: "replicate" },
      {},
      "black-forest-labs/flux-schnell",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    // Only the job's poller could end it, at its first poll a second after the accept.
    const tookMs = Date.parse(record.generation_completed_at!) - Date.parse(record.generation_created_at);
    expect(tookMs).toBeGreaterThanOrEqual(900);
    const attempts = await db.providerAttempt.findMany({ where: { generationId: data.generation_id } });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ provider: "replicate", outcome: "succeeded", predictionId: record.generation_prediction_id });
    expect((await db.ledgerEntry.findMany({ where: { generationId: data.generation_id } })).map((entry) => entry.type).sort()).toEqual([
      "charge",
      "reserve",
    ]);
    expect((await fetch(record.generation_output_file[0]!)).status).toBe(200);
  });
});

describe("POST /api/providers/{provider}/callback", () => {
  it("refuses an unsigned callback, an unknown provider and an oversized body in the envelope", async () => {
    const unsigned = await api("/api/providers/replicate/callback", { method: "POST", body: { id: "p1", status: "succeeded" } });
    expectError(unsigned, "ERR1002");
    expectError(await api("/api/providers/nobody/callback", { method: "POST", body: {} }), "ERR1006");
    expectError(await api("/api/providers/local/callback", { method: "POST", body: {} }), "ERR1006");
    const huge = await api("/api/providers/replicate/callback", {
      method: "POST",
      rawBody: JSON.stringify({ pad: "x".repeat(1_100_000) }),
    });
    expectError(huge, "ERR1011");
  });
});

// A provider's answer names the output URL, so the download is held to the destination rules: an
// address that reaches this machine (0.0.0.0 connects to loopback), a redirect there, or a body
// past the cap fails that attempt with ERR4003, and the chain moves on. The test app allows
// loopback outputs (PROVIDER_ALLOW_LOOPBACK=1, for the fake itself); 0.0.0.0 is refused all the same.
describe("provider output downloads", () => {
  function attemptsOf(generationId: string) {
    return db.providerAttempt.findMany({
      where: { generationId },
      orderBy: { attemptNumber: "asc" },
      select: { provider: true, outcome: true, errorCode: true, errorMessage: true },
    });
  }

  function storedFiles(accountId: string, generationId: string): string[] {
    const folder = path.join(process.env.DATA_DIR ?? ".data", "files", "outputs", accountId, generationId);
    return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
  }

  it.each([
    [
      "an output URL on an address that reaches loopback",
      "[replicate:output-internal]",
      "An output URL was refused: 0.0.0.0 is an unspecified address",
    ],
    [
      "an output URL redirecting to such an address",
      "[replicate:output-redirect-internal]",
      "An output URL was refused: 0.0.0.0 is an unspecified address",
    ],
    ["an output larger than the cap", "[replicate:output-oversized]", "An output is larger than the 200 MiB cap per output file"],
  ])("%s fails the attempt with ERR4003; nothing is stored or served, nothing charged", async (_label, marker, reason) => {
    const { key, accountId } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: `a red kite ${marker}`, generation_provider_order: "replicate" },
      {},
      "black-forest-labs/flux-schnell",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004", generation_output_file: [] });
    expect(record.generation_error).toContain(`replicate ERR4003 (${reason}`);
    expect(record.generation_error).not.toContain("internal secret");
    expect(await attemptsOf(data.generation_id)).toEqual([
      { provider: "replicate", outcome: "failed", errorCode: "ERR4003", errorMessage: expect.stringContaining(reason) },
    ]);
    expect(storedFiles(accountId, data.generation_id)).toEqual([]);
    expect((await db.ledgerEntry.findMany({ where: { generationId: data.generation_id } })).map((entry) => entry.type).sort()).toEqual([
      "refund",
      "reserve",
    ]);
  });

  it("a refused output fails over to the next provider in the chain", async () => {
    const { key } = await accountWithKey();
    const created = await createImage(
      key,
      { generation_prompt: "a red kite [replicate:output-internal]", generation_provider_order: "replicate,fal" },
      {},
      "black-forest-labs/flux-schnell",
    );
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    // fal has no credential in the test app, so its attempt fails too, on its own account.
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4004", generation_output_file: [] });
    expect(await attemptsOf(data.generation_id)).toEqual([
      {
        provider: "replicate",
        outcome: "failed",
        errorCode: "ERR4003",
        errorMessage: expect.stringContaining("An output URL was refused"),
      },
      { provider: "fal", outcome: "failed", errorCode: "ERR4002", errorMessage: "fal is not configured on this deployment." },
    ]);
  });
});

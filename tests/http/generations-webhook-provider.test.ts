import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/server/db";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";

// The accepted-then-callback path: the test server talks to a local Replicate that follows the
// published protocol (scripts/test.ts starts it). The prediction is accepted, the fake POSTs a
// signed webhook to /api/providers/replicate/callback, the run wakes, polls, downloads the output.

describe("a webhook provider end to end (Replicate protocol)", () => {
  it("runs accepted → processing → succeeded through the signed callback", async () => {
    const { key, accountId } = await accountWithKey();
    const created = await createImage(key, { generation_prompt: "a red kite", generation_provider_order: "replicate" }, {}, "black-forest-labs/flux-schnell");
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
    expect((await db.ledgerEntry.findMany({ where: { generationId: data.generation_id } })).map((entry) => entry.type).sort()).toEqual(["charge", "reserve"]);
    expect(accountId).toBeTruthy();
  });

  it("still succeeds, once, when the callback arrives before the run knows the prediction", async () => {
    // The fake ends this prediction at once and delivers its signed completion webhook before it
    // answers the create: the callback finds no attempt with that prediction id and wakes nothing.
    const { key } = await accountWithKey();
    const created = await createImage(key, { generation_prompt: "a blue kite [replicate:callback-first]", generation_provider_order: "replicate" }, {}, "black-forest-labs/flux-schnell");
    const data = expectSuccess(created, 202);
    const record = await waitForStatus(key, data.generation_id);
    expect(record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    // Only the job's poller could end it, at its first poll a second after the accept.
    const tookMs = Date.parse(record.generation_completed_at!) - Date.parse(record.generation_created_at);
    expect(tookMs).toBeGreaterThanOrEqual(900);
    const attempts = await db.providerAttempt.findMany({ where: { generationId: data.generation_id } });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ provider: "replicate", outcome: "succeeded", predictionId: record.generation_prediction_id });
    expect((await db.ledgerEntry.findMany({ where: { generationId: data.generation_id } })).map((entry) => entry.type).sort()).toEqual(["charge", "reserve"]);
    expect((await fetch(record.generation_output_file[0]!)).status).toBe(200);
  });
});

describe("POST /api/providers/{provider}/callback", () => {
  it("refuses an unsigned callback, an unknown provider and an oversized body in the envelope", async () => {
    const unsigned = await api("/api/providers/replicate/callback", { method: "POST", body: { id: "p1", status: "succeeded" } });
    expectError(unsigned, "ERR1002");
    expectError(await api("/api/providers/nobody/callback", { method: "POST", body: {} }), "ERR1006");
    expectError(await api("/api/providers/local/callback", { method: "POST", body: {} }), "ERR1006");
    const huge = await api("/api/providers/replicate/callback", { method: "POST", rawBody: JSON.stringify({ pad: "x".repeat(1_100_000) }) });
    expectError(huge, "ERR1011");
  });
});

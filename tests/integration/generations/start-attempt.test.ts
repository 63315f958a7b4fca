import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/base/db";
import { startAttempt } from "@/server/generations/run/run-attempt";
import { inTransaction } from "@/server/base/transaction";
import { ledgerOf } from "@/tests/support/generations";

// An attempt's start on a provider that names its job when it answers (replicate here, the suite's
// fake): the read of the generation, the attempt's row and the move to `processing` are one
// statement. A generation out of flight or past its Cancel-After deadline gets no attempt row and
// no provider call.

const MODEL = "black-forest-labs/flux-schnell";

async function pending(options: { deadlineAt?: Date; status?: "pending" | "canceled" } = {}) {
  const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `start-${randomUUID()}@test.local` }));
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: MODEL,
      prompt: "a lighthouse",
      ratio: "1:1",
      outputFormat: "png",
      outputNumber: 1,
      inputFiles: [],
      status: options.status ?? "pending",
      estimatedCost: "0.003",
      providerOrder: ["replicate"],
      deadlineAt: options.deadlineAt ?? null,
    },
  });
  await inTransaction((tx) =>
    reserveCredits(tx, { accountId, generationId: generation.id, amountMillis: 3, modelIdentifier: MODEL, description: "test" }),
  );
  return generation.id;
}

describe("starting an attempt on replicate", () => {
  it("records the attempt and moves the generation to processing, then submits", async () => {
    const generationId = await pending();
    // The suite's Replicate fake (scripts/test.ts) accepts the prediction and works on it.
    const outcome = await startAttempt(generationId, "replicate", 1);
    expect(outcome).toMatchObject({ outcome: "accepted", predictionId: expect.any(String) });
    const predictionId = (outcome as { predictionId: string }).predictionId;
    const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
    expect(generation).toMatchObject({ status: "processing", providerUsed: "replicate", predictionId });
    expect(generation.startedAt).toBeInstanceOf(Date);
    const attempts = await db.providerAttempt.findMany({ where: { generationId } });
    expect(attempts).toEqual([
      expect.objectContaining({
        provider: "replicate",
        attemptNumber: 1,
        outcome: "running",
        predictionId,
        modelIdentifier: MODEL,
        region: "us",
        accountId: generation.accountId,
      }),
    ]);
    expect(attempts[0]!.estimatedCost.toFixed(3)).toBe("0.003");
  });

  it("a retried start of the same attempt keeps one row", async () => {
    const generationId = await pending();
    await startAttempt(generationId, "replicate", 1);
    await startAttempt(generationId, "replicate", 1);
    expect(await db.providerAttempt.count({ where: { generationId } })).toBe(1);
  });

  it("abandons a canceled generation: no attempt row", async () => {
    const generationId = await pending({ status: "canceled" });
    expect(await startAttempt(generationId, "replicate", 1)).toEqual({ outcome: "abandoned" });
    expect(await db.providerAttempt.count({ where: { generationId } })).toBe(0);
    expect((await db.generation.findUniqueOrThrow({ where: { id: generationId } })).status).toBe("canceled");
  });

  it("past its deadline: no attempt row, canceled at the deadline (ERR4006) and refunded", async () => {
    const generationId = await pending({ deadlineAt: new Date(Date.now() - 1000) });
    expect(await startAttempt(generationId, "replicate", 1)).toEqual({ outcome: "abandoned" });
    expect(await db.providerAttempt.count({ where: { generationId } })).toBe(0);
    expect(await db.generation.findUniqueOrThrow({ where: { id: generationId } })).toMatchObject({
      status: "canceled",
      errorCode: "ERR4006",
    });
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.003", "refund:0.003"]);
  });

  it("throws for a generation that does not exist", async () => {
    await expect(startAttempt(randomUUID(), "replicate", 1)).rejects.toThrow(/does not exist/);
  });
});

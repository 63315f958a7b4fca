import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { db } from "@/server/base/db";
import { finishSucceeded } from "@/server/generations/run/finish-generation";
import { settleSuccess } from "@/server/generations/run/settle-success";
import { inTransaction } from "@/server/base/transaction";
import { inFlightWithAttempt, ledgerOf } from "@/tests/support/generations";

// A success is one autocommit statement (settle-success.ts) that decides every case under its
// locks: the success and its charge, a discard (out of flight, past the deadline), a retried step.

const MODEL = "darkroom/lumen-image";

async function account(credits = 5_000) {
  const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `settle-${randomUUID()}@test.local`, credits }));
  return accountId;
}

/** A generation in flight on replicate, with its reservation (1.250 by default) and its first attempt. */
const processing = (accountId: string, options: { amountMillis?: number; deadlineAt?: Date; startedAt?: Date } = {}) =>
  inFlightWithAttempt(accountId, { amountMillis: 1_250, provider: "replicate", ...options });

/**
 * What a finish wrote for a generation, with its own ids replaced so two generations compare: the
 * rows the finish writes, and the reservation's without its balance (reserved one after the other).
 */
async function written(generationId: string) {
  const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
  const attempt = await db.providerAttempt.findFirstOrThrow({ where: { generationId } });
  const entries = await db.ledgerEntry.findMany({ where: { generationId }, orderBy: { createdAt: "asc" } });
  const events = await db.activityEvent.findMany({
    where: { accountId: generation.accountId, metadata: { path: ["generation_id"], equals: generationId } },
    orderBy: { action: "asc" },
  });
  const anonymous = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value)
        .replaceAll(generationId, "<generation>")
        .replace(/"ledger_entry_id":"[0-9a-f-]{36}"/g, '"ledger_entry_id":"<entry>"'),
    );
  return {
    generation: {
      status: generation.status,
      outputKeys: generation.outputKeys,
      predictionId: generation.predictionId,
      errorCode: generation.errorCode,
      completedAt: generation.completedAt?.getTime(),
      metricsTotalTime: generation.metricsTotalTime,
      metricsPredictTime: generation.metricsPredictTime,
      updatedAt: generation.updatedAt.getTime(),
    },
    attempt: {
      outcome: attempt.outcome,
      finishedAt: attempt.finishedAt?.getTime(),
      latencyMs: attempt.latencyMs,
      predictionId: attempt.predictionId,
      wasted: attempt.wasted,
    },
    ledger: entries.map((entry) =>
      anonymous({
        type: entry.type,
        amount: entry.amount.toFixed(3),
        balanceAfter: entry.type === "reserve" ? "<at reserve>" : entry.balanceAfter.toFixed(3),
        model: entry.modelIdentifier,
        description: entry.description,
        sourceKey: entry.sourceKey,
      }),
    ),
    activity: events.map((event) =>
      anonymous({
        action: event.action,
        actor: event.actor,
        category: event.category,
        description: event.description,
        metadata: event.action === "credit.reserved" ? "<reserve>" : event.metadata,
      }),
    ),
  };
}

describe("a success, one statement", () => {
  it("writes the attempt, the generation, its activity and the charge", async () => {
    const accountId = await account();
    const startedAt = new Date(Date.now() - 2_345);
    await processing(accountId, { startedAt });
    const generationId = await processing(accountId, { startedAt });
    const now = new Date();
    const success = { attempt: 1, outputKeys: ["outputs/a/0.png", "outputs/a/1.png"], predictTimeSeconds: null, predictionId: "pred-123" };

    expect(await settleSuccess({ generationId, ...success, now })).toEqual({ done: "succeeded", accountId, subscribed: false });

    const one = await written(generationId);
    const latencyMs = now.getTime() - startedAt.getTime();
    expect(one.generation).toMatchObject({
      status: "succeeded",
      predictionId: "pred-123",
      errorCode: null,
      completedAt: now.getTime(),
      metricsPredictTime: latencyMs / 1000,
    });
    expect(one.attempt).toMatchObject({ outcome: "succeeded", latencyMs, predictionId: "pred-123", wasted: false });
    // Two reserves of 1.250 from 5.000 + the 1.000 welcome credit; the charge leaves the balance as it is.
    expect(one.ledger).toEqual([
      { type: "reserve", amount: "1.250", balanceAfter: "<at reserve>", model: MODEL, description: "test", sourceKey: null },
      {
        type: "charge",
        amount: "1.250",
        balanceAfter: "3.500",
        model: MODEL,
        description: "Charge for generation <generation>",
        sourceKey: null,
      },
    ]);
    expect(one.activity.find((event: { action: string }) => event.action === "credit.charged")).toMatchObject({
      description: "1.250 credits charged for generation <generation>",
      metadata: { amount: 1.25, balance_after: 3.5, generation_id: "<generation>", ledger_entry_id: "<entry>", model_identifier: MODEL },
    });
    expect(one.activity.find((event: { action: string }) => event.action === "generation.succeeded")).toMatchObject({
      actor: "system",
      category: "generation",
      description: "Generation <generation> succeeded",
      metadata: { generation_id: "<generation>", provider: "replicate" },
    });
  });

  it("keeps the provider's predict time when it reports one, and a whole-credit amount as a plain number", async () => {
    const accountId = await account();
    const generationId = await processing(accountId, { amountMillis: 2_000 });
    expect(
      await settleSuccess({
        generationId,
        attempt: 1,
        outputKeys: [],
        predictTimeSeconds: 0.75,
        predictionId: null,
        now: new Date(),
      }),
    ).toMatchObject({ done: "succeeded" });
    const after = await written(generationId);
    expect(after.generation.metricsPredictTime).toBe(0.75);
    expect(after.activity.find((event: { action: string }) => event.action === "credit.charged")?.metadata.amount).toBe(2);
    expect(after.activity.find((event: { action: string }) => event.action === "credit.charged")?.description).toBe(
      "2.000 credits charged for generation <generation>",
    );
  });

  it("discards the attempt of a generation out of flight or past its deadline, and nothing else moves", async () => {
    const accountId = await account();
    const input = { attempt: 1, outputKeys: [], predictTimeSeconds: null, predictionId: null };
    const canceled = await processing(accountId);
    await db.generation.update({ where: { id: canceled }, data: { status: "canceled" } });
    const pastDeadline = await processing(accountId, { deadlineAt: new Date(Date.now() - 1) });

    for (const [generationId, declined] of [
      [canceled, "not_in_flight"],
      [pastDeadline, "past_deadline"],
    ] as const) {
      const before = await written(generationId);
      expect(await settleSuccess({ generationId, ...input, providerCost: "0.004", now: new Date() })).toEqual({ declined });
      const after = await written(generationId);
      expect(after.generation).toEqual(before.generation);
      expect(after.ledger).toEqual(before.ledger);
      expect(after.activity).toEqual(before.activity);
      expect(after.attempt).toMatchObject({ outcome: "discarded", wasted: true });
      expect((await db.providerAttempt.findFirstOrThrow({ where: { generationId } })).providerCost?.toFixed(3)).toBe("0.004");
    }
    // No attempt of that number: nothing to lock.
    await expect(settleSuccess({ generationId: canceled, ...input, attempt: 7, now: new Date() })).rejects.toThrow(/no attempt 7/);
  });

  it("past its deadline, the run's success cancels the generation at it and refunds it", async () => {
    const accountId = await account();
    const generationId = await processing(accountId, { deadlineAt: new Date(Date.now() - 1) });
    expect(await finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: null })).toEqual({ succeeded: false });
    const after = await written(generationId);
    expect(after.generation).toMatchObject({ status: "canceled", errorCode: "ERR4006" });
    expect(after.attempt).toMatchObject({ outcome: "discarded", wasted: true });
    expect(await ledgerOf(generationId)).toEqual(["reserve:1.250", "refund:1.250"]);
  });

  it("a retried step finds its success recorded and changes nothing", async () => {
    const accountId = await account();
    const input = { attempt: 1, outputKeys: [], predictTimeSeconds: null, predictionId: null };
    const generationId = await processing(accountId);
    expect((await finishSucceeded({ generationId, ...input })).succeeded).toBe(true);
    const before = await written(generationId);
    expect(await settleSuccess({ generationId, ...input, now: new Date() })).toEqual({
      done: "already_succeeded",
      accountId,
      subscribed: false,
    });
    expect(await written(generationId)).toEqual(before);
  });

  it("charges nothing for a generation that reserved nothing", async () => {
    const accountId = await account();
    const generationId = await processing(accountId);
    await db.$executeRaw`DELETE FROM ledger_entry WHERE generation_id = ${generationId}::uuid`;
    expect(
      await settleSuccess({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: null, predictionId: null, now: new Date() }),
    ).toMatchObject({
      done: "succeeded",
    });
    expect((await written(generationId)).generation.status).toBe("succeeded");
    expect(await ledgerOf(generationId)).toEqual([]);
  });

  it("succeeds the same way for an account whose endpoint takes generation.completed, and its delivery is queued", async () => {
    const accountId = await account();
    await db.webhookEndpoint.create({
      data: { accountId, url: "https://hooks.example.com/darkroom", events: ["generation.completed"], secret: "sealed-elsewhere" },
    });
    const generationId = await processing(accountId);
    expect((await finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: null })).succeeded).toBe(true);
    expect(await ledgerOf(generationId)).toEqual(["reserve:1.250", "charge:1.250"]);
    expect(await db.webhookDelivery.count({ where: { accountId, eventKey: `generation.completed:${generationId}` } })).toBe(1);
    // A retried step queues again what its first try may not have: still one delivery per endpoint.
    expect((await finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: null })).succeeded).toBe(true);
    expect(await db.webhookDelivery.count({ where: { accountId, eventKey: `generation.completed:${generationId}` } })).toBe(1);
  });

  it("charges once when many finishes of the same generation race", async () => {
    const accountId = await account();
    const generationId = await processing(accountId);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        finishSucceeded({ generationId, attempt: 1, outputKeys: ["outputs/x/0.png"], predictTimeSeconds: null }),
      ),
    );
    // A retried step whose first try committed also answers succeeded: the success stands.
    expect(results.every((result) => result.succeeded)).toBe(true);
    expect(await ledgerOf(generationId)).toEqual(["reserve:1.250", "charge:1.250"]);
    expect(await db.activityEvent.count({ where: { accountId, action: "credit.charged" } })).toBe(1);
    expect(await db.activityEvent.count({ where: { accountId, action: "generation.succeeded" } })).toBe(1);
  });
});

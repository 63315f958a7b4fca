import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { db } from "@/server/base/db";
import { finishSucceeded, finishSucceededInTransaction } from "@/server/generations/run/finish-generation";
import { settleSuccessAtOnce } from "@/server/generations/run/settle-success";
import { inTransaction } from "@/server/base/transaction";
import { inFlightWithAttempt, ledgerOf } from "@/tests/support/generations";

// The usual success is one autocommit statement (settle-success.ts) that must write exactly what
// finishSucceeded's transaction writes for it, and write nothing in every case that transaction
// decides otherwise.

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

describe("the usual success in one statement", () => {
  it("writes what the finish's transaction writes: attempt, generation, activity, charge", async () => {
    const accountId = await account();
    const startedAt = new Date(Date.now() - 2_345);
    const [atOnce, inTx] = [await processing(accountId, { startedAt }), await processing(accountId, { startedAt })];
    const now = new Date();
    const success = { attempt: 1, outputKeys: ["outputs/a/0.png", "outputs/a/1.png"], predictTimeSeconds: null, predictionId: "pred-123" };

    expect(await settleSuccessAtOnce({ generationId: atOnce, ...success, now })).toEqual({ settled: true });
    expect(await finishSucceededInTransaction({ generationId: inTx, ...success }, now)).toEqual({ succeeded: true });

    const [one, other] = [await written(atOnce), await written(inTx)];
    const latencyMs = now.getTime() - startedAt.getTime();
    expect(one).toEqual(other);
    // And what that is, read plainly.
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
      await settleSuccessAtOnce({
        generationId,
        attempt: 1,
        outputKeys: [],
        predictTimeSeconds: 0.75,
        predictionId: null,
        now: new Date(),
      }),
    ).toEqual({ settled: true });
    const after = await written(generationId);
    expect(after.generation.metricsPredictTime).toBe(0.75);
    expect(after.activity.find((event: { action: string }) => event.action === "credit.charged")?.metadata.amount).toBe(2);
    expect(after.activity.find((event: { action: string }) => event.action === "credit.charged")?.description).toBe(
      "2.000 credits charged for generation <generation>",
    );
  });

  it("writes nothing, and says so, for every case the transaction decides otherwise", async () => {
    const accountId = await account();
    const input = { attempt: 1, outputKeys: [], predictTimeSeconds: null, predictionId: null };

    const canceled = await processing(accountId);
    await db.generation.update({ where: { id: canceled }, data: { status: "canceled" } });
    const pastDeadline = await processing(accountId, { deadlineAt: new Date(Date.now() - 1) });
    const charged = await processing(accountId);
    expect((await finishSucceeded({ generationId: charged, ...input })).succeeded).toBe(true);

    for (const generationId of [canceled, pastDeadline, charged]) {
      const before = await written(generationId);
      expect(await settleSuccessAtOnce({ generationId, ...input, now: new Date() })).toEqual({ settled: false, subscribed: false });
      expect(await written(generationId)).toEqual(before);
    }
    // No attempt of that number: nothing locked, nothing written.
    expect(await settleSuccessAtOnce({ generationId: canceled, ...input, attempt: 7, now: new Date() })).toEqual({
      settled: false,
      subscribed: false,
    });

    // An endpoint takes generation.completed: its deliveries are the transaction's to queue.
    const subscribedAccount = await account();
    await db.webhookEndpoint.create({
      data: {
        accountId: subscribedAccount,
        url: "https://hooks.example.com/darkroom",
        events: ["generation.completed"],
        secret: "sealed-elsewhere",
      },
    });
    const subscribed = await processing(subscribedAccount);
    expect(await settleSuccessAtOnce({ generationId: subscribed, ...input, now: new Date() })).toEqual({
      settled: false,
      subscribed: true,
    });
    expect(await ledgerOf(subscribed)).toEqual(["reserve:1.250"]);
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

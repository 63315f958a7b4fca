import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import { db } from "@/server/base/db";
import { finishSucceeded } from "@/server/generations/run/finish-generation";
import { startAttempt } from "@/server/generations/run/run-attempt";
import { planGeneration, startGeneration } from "@/server/generations/start-generation";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";

// generation.started is not lost when the process dies between the submit step's move to
// `processing` and the webhook's queueing: the retried step finds the generation processing and
// queues it then. A failover's second start queues nothing new. The run request is caught by a
// sink, so only this process drives the attempts.

const { sink } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(() => unregisterExecutor(sink));

async function subscribedGeneration() {
  const { accountId } = await createTestAccount();
  await inTransaction((tx) =>
    createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/hooks", events: ["generation.started"], actor: "system" }),
  );
  const key = await createTestKey(accountId);
  const model = findModel("darkroom/lumen-image")!;
  const fields = generationRequestSchema(model).parse({
    generation_prompt: `started ${randomUUID()}`,
    generation_provider_order: "local,local-backup",
  });
  const plan = await planGeneration({ accountId, apiKeyId: key.apikey_id, region: "us", model, fields });
  const { generation_id: generationId } = await inTransaction((tx) => startGeneration(tx, plan));
  return generationId;
}

const startedDeliveries = (generationId: string) => db.webhookDelivery.count({ where: { eventKey: `generation.started:${generationId}` } });

describe("generation.started across a crash", () => {
  it("is queued by the retried submit step when the first try moved the generation and died", async () => {
    const generationId = await subscribedGeneration();
    // What the first try left behind: the move committed, the webhook never queued.
    await db.generation.update({
      where: { id: generationId },
      data: { status: "processing", providerUsed: "local", startedAt: new Date() },
    });
    expect(await startedDeliveries(generationId)).toBe(0);
    const outcome = await startAttempt(generationId, "local", 1);
    expect(outcome.outcome).toBe("succeeded");
    expect(await startedDeliveries(generationId)).toBe(1);
  });

  it("is queued once when a second provider takes over", async () => {
    const generationId = await subscribedGeneration();
    expect((await startAttempt(generationId, "local", 1)).outcome).toBe("succeeded");
    await db.generation.update({ where: { id: generationId }, data: { status: "processing" } });
    expect((await startAttempt(generationId, "local-backup", 2)).outcome).toBe("succeeded");
    expect(await startedDeliveries(generationId)).toBe(1);
  });

  it("a submit step retried after it finished the generation (a synchronous provider) finds it out of flight: one charge, one terminal delivery", async () => {
    const generationId = await subscribedGeneration();
    const { accountId } = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/hooks", events: ["generation.completed"], actor: "system" }),
    );
    // The first try: the submit and, in the same step, the finish (run-generation's submit).
    const outcome = await startAttempt(generationId, "local", 1);
    if (outcome.outcome !== "succeeded") throw new Error(`expected a synchronous success, got ${outcome.outcome}`);
    expect(
      await finishSucceeded({ generationId, attempt: 1, outputKeys: outcome.outputKeys, predictTimeSeconds: outcome.predictTimeSeconds }),
    ).toEqual({ succeeded: true });
    // The process died before the step's result was saved: the executor runs the step again.
    expect(await startAttempt(generationId, "local", 1)).toEqual({ outcome: "abandoned" });
    expect((await db.ledgerEntry.findMany({ where: { generationId } })).map((entry) => entry.type).sort()).toEqual(["charge", "reserve"]);
    expect(await db.webhookDelivery.count({ where: { eventKey: `generation.completed:${generationId}` } })).toBe(1);
    expect((await db.generation.findUniqueOrThrow({ where: { id: generationId } })).status).toBe("succeeded");
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findModel } from "@/server/catalog";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import { db } from "@/server/db";
import { startAttempt } from "@/server/generations/run/run-attempt";
import { planGeneration, startGeneration } from "@/server/generations/start-generation";
import { registerExecutor, unregisterExecutor } from "@/server/inngest/executor/registry";
import { ensureAuthSecret } from "@/server/runtime/secrets";
import { inTransaction } from "@/server/transaction";
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
  await inTransaction((tx) => createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/hooks", events: ["generation.started"], actor: "system" }));
  const key = await createTestKey(accountId);
  const model = findModel("darkroom/lumen-image")!;
  const fields = generationRequestSchema(model).parse({ generation_prompt: `started ${randomUUID()}`, generation_provider_order: "local,local-backup" });
  const plan = await planGeneration({ accountId, apiKeyId: key.apikey_id, region: "us", model, fields });
  const { generation_id: generationId } = await inTransaction((tx) => startGeneration(tx, plan));
  return generationId;
}

const startedDeliveries = (generationId: string) => db.webhookDelivery.count({ where: { eventKey: `generation.started:${generationId}` } });

describe("generation.started across a crash", () => {
  it("is queued by the retried submit step when the first try moved the generation and died", async () => {
    const generationId = await subscribedGeneration();
    // What the first try left behind: the move committed, the webhook never queued.
    await db.generation.update({ where: { id: generationId }, data: { status: "processing", providerUsed: "local", startedAt: new Date() } });
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
});

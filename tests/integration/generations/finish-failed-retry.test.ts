import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/base/db";
import { finishFailed } from "@/server/generations/run/finish-generation";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { recordingEventSink } from "@/tests/support/event-sink";

// Found by the R3 chaos drill: a SIGKILL after the "finish-failed" step committed (failed +
// refund) but before its generation/finished event left. The executor ran the step again after
// the restart; the retry found the generation no longer in flight and sent nothing, so no
// generation.failed webhook was ever queued. The terminal deliveries now commit in the failure's
// own transaction, so there is no gap to die in: a retry finds them queued, queues nothing new and
// refunds nothing twice.

const { sink, sent } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(() => unregisterExecutor(sink));

async function processingGeneration() {
  const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `finish-retry-${randomUUID()}@test.local` }));
  await inTransaction((tx) =>
    createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/hooks", events: ["generation.failed"], actor: "system" }),
  );
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      status: "processing",
      estimatedCost: "0.002",
      providerOrder: ["local", "local-backup"],
    },
  });
  await inTransaction((tx) =>
    reserveCredits(tx, {
      accountId,
      generationId: generation.id,
      amountMillis: 2,
      modelIdentifier: "darkroom/lumen-image",
      description: "test",
    }),
  );
  return { accountId, generationId: generation.id };
}

const failedDeliveries = (generationId: string) =>
  db.webhookDelivery.findMany({ where: { eventKey: `generation.failed:${generationId}` }, select: { id: true, event: true } });
const finishedEvents = (generationId: string) =>
  sent.filter((event) => event.name === "generation/finished" && event.data.generationId === generationId);
const errors = [{ provider: "local", code: "ERR4002" as const, message: "provider failed", failover: true }];

describe("finishFailed retried after its transaction committed", () => {
  it("finds the generation.failed delivery queued with the failure, queues nothing new, and refunds once", async () => {
    const { generationId } = await processingGeneration();
    expect(await finishFailed({ generationId, errors })).toEqual({ failed: true });
    const queued = await failedDeliveries(generationId);
    expect(queued).toEqual([expect.objectContaining({ event: "generation.failed" })]);
    // The delivery's run was requested with the commit; no fan-out event is needed.
    expect(finishedEvents(generationId)).toEqual([]);

    expect(await finishFailed({ generationId, errors })).toEqual({ failed: false });
    expect(await failedDeliveries(generationId)).toEqual(queued);
    expect(finishedEvents(generationId)).toEqual([]);
    expect((await db.ledgerEntry.findMany({ where: { generationId } })).map((entry) => entry.type).sort()).toEqual(["refund", "reserve"]);
  });

  it("queues nothing for a generation that ended otherwise (canceled: its own transaction queued its event)", async () => {
    const { generationId } = await processingGeneration();
    await db.generation.update({ where: { id: generationId }, data: { status: "canceled" } });
    expect(await finishFailed({ generationId, errors })).toEqual({ failed: false });
    expect(await failedDeliveries(generationId)).toEqual([]);
    expect(finishedEvents(generationId)).toEqual([]);
  });
});

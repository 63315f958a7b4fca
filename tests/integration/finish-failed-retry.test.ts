import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/db";
import { finishFailed } from "@/server/generations/run/finish-generation";
import { registerExecutor, unregisterExecutor } from "@/server/inngest/executor/registry";
import { inTransaction } from "@/server/transaction";
import { recordingEventSink } from "@/tests/support/event-sink";

// Found by the R3 chaos drill: a SIGKILL after the "finish-failed" step committed (failed +
// refund) but before its generation/finished event left. The executor runs the step again after
// the restart; the retry found the generation no longer in flight and sent nothing, so no
// generation.failed webhook was ever queued. A retry now sends the event again, and refunds nothing twice.

const { sink, sent } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(() => unregisterExecutor(sink));

async function processingGeneration() {
  const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `finish-retry-${randomUUID()}@test.local` }));
  const generation = await db.generation.create({
    data: { accountId, region: "us", mediaKind: "image", modelIdentifier: "darkroom/lumen-image", status: "processing", estimatedCost: "0.002", providerOrder: ["local", "local-backup"] },
  });
  await inTransaction((tx) => reserveCredits(tx, { accountId, generationId: generation.id, amountMillis: 2, modelIdentifier: "darkroom/lumen-image", description: "test" }));
  return { accountId, generationId: generation.id };
}

const finishedEvents = (generationId: string) => sent.filter((event) => event.name === "generation/finished" && event.data.generationId === generationId);
const errors = [{ provider: "local", code: "ERR4002" as const, message: "provider failed", failover: true }];

describe("finishFailed retried after its transaction committed", () => {
  it("sends generation/finished again under the same id, and refunds once", async () => {
    const { accountId, generationId } = await processingGeneration();
    expect(await finishFailed({ generationId, errors })).toEqual({ failed: true });
    // The first try's event is lost with the process that was about to send it.
    sent.length = 0;

    expect(await finishFailed({ generationId, errors })).toEqual({ failed: false });
    expect(finishedEvents(generationId)).toEqual([expect.objectContaining({ id: `generation-finished:${generationId}`, data: { generationId, accountId, status: "failed" } })]);
    expect((await db.ledgerEntry.findMany({ where: { generationId } })).map((entry) => entry.type).sort()).toEqual(["refund", "reserve"]);
  });

  it("sends nothing for a generation that ended otherwise (canceled: its own path sent the event)", async () => {
    const { generationId } = await processingGeneration();
    await db.generation.update({ where: { id: generationId }, data: { status: "canceled" } });
    sent.length = 0;
    expect(await finishFailed({ generationId, errors })).toEqual({ failed: false });
    expect(finishedEvents(generationId)).toEqual([]);
  });
});

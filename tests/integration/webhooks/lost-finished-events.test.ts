import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { db } from "@/server/base/db";
import { resendLostFinishedEvents } from "@/server/generations/resend-lost-finished-events";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { queueWebhookEvent } from "@/server/webhooks/emit-webhook-event";
import { recordingEventSink } from "@/tests/support/event-sink";

// A terminal transition whose generation/finished event was lost (the process died between the
// commit and the send: a cancel's outbox, as the R3 chaos drill's SIGKILLs can hit) is found by the
// sweeper and its event sent again, so the terminal webhook is not lost. The sweep is asked at a
// clock 10 minutes ahead, and the generations end 9 minutes ahead, so the running app's own
// per-minute sweep (at the real time) does not race this one.

const { sink, sent } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(() => unregisterExecutor(sink));

const now = new Date(Date.now() + 10 * 60_000);

async function ended(accountId: string, status: "succeeded" | "failed" | "canceled", completedAt: Date) {
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      status,
      estimatedCost: "0.002",
      providerOrder: ["local"],
      completedAt,
    },
  });
  return generation.id;
}

describe("resendLostFinishedEvents", () => {
  it("sends generation/finished again for a generation that ended without its terminal delivery, and for no other", async () => {
    const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `lost-finished-${randomUUID()}@test.local` }));
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId,
        url: "http://127.0.0.1:9/hooks",
        events: ["generation.completed", "generation.canceled"],
        actor: "system",
      }),
    );
    const minuteAgo = new Date(now.getTime() - 60_000);
    const lost = await ended(accountId, "canceled", minuteAgo);
    const delivered = await ended(accountId, "succeeded", minuteAgo);
    await inTransaction((tx) =>
      queueWebhookEvent(tx, {
        accountId,
        event: "generation.completed",
        eventKey: `generation.completed:${delivered}`,
        data: { generation_id: delivered },
      }),
    );
    const young = await ended(accountId, "canceled", new Date(now.getTime() - 5_000));
    const unsubscribed = await ended(accountId, "failed", minuteAgo);

    const { finishedResent } = await resendLostFinishedEvents(now);
    expect(finishedResent).toContain(lost);
    for (const id of [delivered, young, unsubscribed]) expect(finishedResent).not.toContain(id);
    const events = sent.filter((event) => event.name === "generation/finished" && event.data.accountId === accountId);
    expect(events).toEqual([
      expect.objectContaining({ id: `generation-finished:${lost}`, data: { generationId: lost, accountId, status: "canceled" } }),
    ]);
  });

  it("leaves an endpoint registered after the generation ended alone", async () => {
    const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `lost-finished-${randomUUID()}@test.local` }));
    const before = await ended(accountId, "canceled", new Date(Date.now() - 60_000));
    await inTransaction((tx) => createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/hooks", actor: "system" }));
    const { finishedResent } = await resendLostFinishedEvents(new Date());
    expect(finishedResent).not.toContain(before);
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { rerequestStalledDeliveries } from "@/server/webhooks/rerequest-stalled-deliveries";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount } from "@/tests/support/fixtures";

// Deliveries whose run request was lost are requested again by the sweep, under ids that make a
// repeated sweep (or a request that did leave) run nothing twice. The sweep's clock is moved
// forward instead of the rows back, so the running app's own sweep never sees these rows stalled.

const { sink, sent } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(() => unregisterExecutor(sink));

async function delivery(
  accountId: string,
  endpointId: string,
  fields: { status?: "pending" | "delivered"; attemptCount?: number; lastAttemptAt?: Date | null },
) {
  return db.webhookDelivery.create({
    data: {
      endpointId,
      accountId,
      event: "webhook.test",
      eventKey: `webhook.test:${randomUUID()}`,
      payload: {},
      status: fields.status ?? "pending",
      attemptCount: fields.attemptCount ?? 0,
      lastAttemptAt: fields.lastAttemptAt ?? null,
    },
  });
}

describe("rerequestStalledDeliveries", () => {
  it("requests a never-attempted delivery again after 30 s and a stalled one after five minutes, and nothing else", async () => {
    const { accountId } = await createTestAccount();
    const endpoint = await db.webhookEndpoint.create({
      data: {
        accountId,
        url: "https://hooks.example.com/stalled",
        events: ["webhook.test"],
        secret: "sealed-elsewhere",
        secretKeyId: "test",
      },
    });
    const now = new Date();
    const never = await delivery(accountId, endpoint.id, {});
    const resend = await delivery(accountId, endpoint.id, { attemptCount: 5, lastAttemptAt: now });
    const done = await delivery(accountId, endpoint.id, { status: "delivered", attemptCount: 1, lastAttemptAt: now });

    // A SIGKILL between the delivery's commit and its request (found by the R3 chaos drill) held its
    // webhook back for the five minutes; a never-attempted one is asked for again after 30 s.
    expect((await rerequestStalledDeliveries(db, { now: new Date(now.getTime() + 20_000) })).rerequested).not.toContain(never.id);
    const soon = (await rerequestStalledDeliveries(db, { now: new Date(now.getTime() + 60_000) })).rerequested;
    expect(soon).toContain(never.id);
    expect(soon).not.toContain(resend.id);
    const later = new Date(now.getTime() + 6 * 60_000);
    const { rerequested } = await rerequestStalledDeliveries(db, { now: later });
    expect(rerequested).toEqual(expect.arrayContaining([never.id, resend.id]));
    expect(rerequested).not.toContain(done.id);

    const requested = sent.filter(
      (event) => event.name === "webhook/delivery.requested" && [never.id, resend.id].includes(event.data.deliveryId as string),
    );
    expect(requested).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: `webhook-delivery:${never.id}`, data: { deliveryId: never.id, fromAttempt: 1 } }),
        expect.objectContaining({ id: `webhook-delivery:${resend.id}:resume:6`, data: { deliveryId: resend.id, fromAttempt: 6 } }),
      ]),
    );
    await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});

import "server-only";
import type { Tx } from "../base/db";
import type { Prisma } from "../base/generated/prisma/client";
import type { DeliveryAttemptResult, DeliveryToAttempt, SentAttempt } from "./delivery-attempt";
import type { WebhookBody } from "./webhook-body";

// The database side of one delivery attempt, each part in a transaction the delivery step opens:
// before the POST, the delivery to send (or why nothing is sent); after it, the attempt's row and
// the delivery's counters and status.

type Skipped = Extract<DeliveryAttemptResult, { outcome: "skipped" }>;

/** The delivery to POST, or a skip: gone, already delivered, or its endpoint disabled meanwhile (then it is dead-lettered). */
export async function loadDeliveryToAttempt(tx: Tx, deliveryId: string): Promise<DeliveryToAttempt | Skipped> {
  const delivery = await tx.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  if (!delivery) return { outcome: "skipped", reason: "not_found" };
  if (delivery.status === "delivered") return { outcome: "skipped", reason: "already_delivered" };
  if (!delivery.endpoint.enabled) {
    await deadLetterDelivery(tx, delivery);
    return { outcome: "skipped", reason: "endpoint_disabled" };
  }
  return delivery;
}

export async function recordAttempt(tx: Tx, delivery: DeliveryToAttempt, sent: SentAttempt): Promise<DeliveryAttemptResult> {
  const { attemptNumber, statusCode, error, startedAtMs, latencyMs } = sent;
  const delivered = error === null && statusCode !== null;
  const startedAt = new Date(startedAtMs);
  // createdAt is the attempt's start: the retry schedule counts from it. A re-run step overwrites its row.
  const attempt = { statusCode, latencyMs, responseSnippet: sent.snippet, error, createdAt: startedAt };
  await tx.webhookAttempt.upsert({
    where: { deliveryId_attemptNumber: { deliveryId: delivery.id, attemptNumber } },
    create: { deliveryId: delivery.id, attemptNumber, ...attempt },
    update: attempt,
  });
  await tx.webhookDelivery.update({
    where: { id: delivery.id },
    data: {
      attemptCount: Math.max(delivery.attemptCount, attemptNumber),
      lastAttemptAt: startedAt,
      ...(delivered ? { status: "delivered", deliveredAt: new Date() } : {}),
    },
  });
  if (delivered) return { outcome: "delivered", attemptNumber, statusCode: statusCode as number, startedAtMs, latencyMs };
  return { outcome: "failed", attemptNumber, statusCode, error: error ?? "no response", startedAtMs, latencyMs };
}

/** The endpoint was disabled after the event was queued: keep it as a dead letter, replayable later. */
async function deadLetterDelivery(tx: Tx, delivery: DeliveryToAttempt) {
  const body = delivery.payload as unknown as WebhookBody;
  await tx.deadLetter.createMany({
    data: [
      {
        endpointId: delivery.endpointId,
        accountId: delivery.accountId,
        event: delivery.event,
        eventKey: delivery.eventKey,
        payload: {
          webhook_event: body.webhook_event,
          webhook_timestamp: body.webhook_timestamp,
          webhook_data: body.webhook_data,
        } as unknown as Prisma.InputJsonObject,
        reason: "endpoint_disabled",
      },
    ],
    skipDuplicates: true,
  });
  await tx.webhookDelivery.updateMany({ where: { id: delivery.id, status: "pending" }, data: { status: "failed" } });
}

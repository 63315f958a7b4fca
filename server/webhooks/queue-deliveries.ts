import "server-only";
import { randomUUID } from "node:crypto";
import type { Tx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { inngest } from "../inngest/client";
import { webhookDeliveryRequested } from "../inngest/events";
import { sendInTransaction } from "../inngest/send-in-transaction";
import type { WebhookEventKind } from "./event-kinds";
import type { WebhookBody } from "./webhook-body";

// One event to a set of endpoints: an enabled endpoint gets a webhook_delivery and a delivery run,
// a disabled one a dead letter. Both are unique per (endpoint, event key), so a
// repeated or overlapping emit of the same event changes nothing: one delivery per endpoint.
// The rows are written in the caller's transaction, and so are their runs (requestDeliveriesInTransaction).

export type QueuedEvent = {
  accountId: string;
  event: WebhookEventKind;
  eventKey: string;
  data: Record<string, unknown>;
  /** When the event happened (default now). */
  occurredAt?: Date;
};

export type QueueResult = {
  /** Deliveries created by this call, each with its run requested after commit. */
  created: string[];
  /** Deliveries that already existed for this event key (not sent again). */
  duplicates: string[];
  /** Dead letters for disabled endpoints (new or existing). */
  deadLetters: string[];
};

export type DeliveryRequest = { deliveryId: string; fromAttempt: number; eventId?: string };

/**
 * `webhook/delivery.requested` for each delivery. A first run's event id is
 * `webhook-delivery:<delivery id>`, so requesting it again is harmless; a re-send names its own
 * (the database allows one re-send at a time).
 */
const deliveryEvents = (deliveries: DeliveryRequest[]) =>
  deliveries.map(({ deliveryId, fromAttempt, eventId }) => webhookDeliveryRequested.create({ deliveryId, fromAttempt }, { id: eventId ?? `webhook-delivery:${deliveryId}` }));

export async function requestDeliveries(deliveries: DeliveryRequest[]) {
  if (deliveries.length === 0) return;
  await inngest.send(deliveryEvents(deliveries));
}

/**
 * The runs' request with the caller's transaction: written in it with the embedded executor (a
 * rollback drops them, a commit queues them at once), else sent once it committed.
 */
export async function requestDeliveriesInTransaction(tx: Tx, deliveries: DeliveryRequest[]): Promise<void> {
  await sendInTransaction(tx, "webhook/delivery.requested", deliveryEvents(deliveries));
}

export async function queueDeliveries(tx: Tx, endpoints: Array<{ id: string; enabled: boolean }>, input: QueuedEvent): Promise<QueueResult> {
  const occurredAt = (input.occurredAt ?? new Date()).toISOString();
  // Plain JSON from here on: what is stored is exactly what will be sent.
  const data = JSON.parse(JSON.stringify(input.data)) as Record<string, unknown>;
  // One insert order for every emit: overlapping emits wait on each other's rows, never deadlock.
  const sorted = [...endpoints].sort((a, b) => a.id.localeCompare(b.id));
  const enabled = sorted.filter((endpoint) => endpoint.enabled);
  const disabled = sorted.filter((endpoint) => !endpoint.enabled);
  const result: QueueResult = { created: [], duplicates: [], deadLetters: [] };

  if (enabled.length > 0) {
    const planned = new Map(enabled.map((endpoint) => [endpoint.id, randomUUID()]));
    await tx.webhookDelivery.createMany({
      data: enabled.map((endpoint) => {
        const id = planned.get(endpoint.id) as string;
        const body: WebhookBody = { webhook_event: input.event, webhook_timestamp: occurredAt, webhook_delivery_id: id, webhook_data: data };
        return { id, endpointId: endpoint.id, accountId: input.accountId, event: input.event, eventKey: input.eventKey, payload: body as unknown as Prisma.InputJsonObject };
      }),
      skipDuplicates: true,
    });
    const rows = await tx.webhookDelivery.findMany({
      where: { endpointId: { in: enabled.map((endpoint) => endpoint.id) }, eventKey: input.eventKey },
      select: { id: true, endpointId: true, status: true, attemptCount: true },
    });
    const toRequest: string[] = [];
    for (const row of rows) {
      if (planned.get(row.endpointId) === row.id) {
        result.created.push(row.id);
        toRequest.push(row.id);
      } else {
        result.duplicates.push(row.id);
        // Created by an emit that stopped before its request went out: request it (same event id).
        if (row.status === "pending" && row.attemptCount === 0) toRequest.push(row.id);
      }
    }
    await requestDeliveriesInTransaction(
      tx,
      toRequest.map((deliveryId) => ({ deliveryId, fromAttempt: 1 })),
    );
  }

  if (disabled.length > 0) {
    const payload = { webhook_event: input.event, webhook_timestamp: occurredAt, webhook_data: data } as unknown as Prisma.InputJsonObject;
    await tx.deadLetter.createMany({
      data: disabled.map((endpoint) => ({ endpointId: endpoint.id, accountId: input.accountId, event: input.event, eventKey: input.eventKey, payload, reason: "endpoint_disabled" })),
      skipDuplicates: true,
    });
    const rows = await tx.deadLetter.findMany({ where: { endpointId: { in: disabled.map((endpoint) => endpoint.id) }, eventKey: input.eventKey }, select: { id: true } });
    result.deadLetters.push(...rows.map((row) => row.id));
  }
  return result;
}

import "server-only";
import type { Tx } from "../base/db";
import { Prisma } from "../base/generated/prisma/client";
import { inngest } from "../base/events/client";
import { webhookDeliveryRequested } from "../base/events/definitions";
import { sendInTransaction } from "../base/events/send-in-transaction";
import type { WebhookEventKind } from "./event-kinds";

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
  deliveries.map(({ deliveryId, fromAttempt, eventId }) =>
    webhookDeliveryRequested.create({ deliveryId, fromAttempt }, { id: eventId ?? `webhook-delivery:${deliveryId}` }),
  );

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

/** One event to the given endpoints (e.g. a test event to one endpoint). */
export async function queueDeliveries(
  tx: Tx,
  endpoints: Array<{ id: string; enabled: boolean }>,
  input: QueuedEvent,
): Promise<QueueResult> {
  if (endpoints.length === 0) return { created: [], duplicates: [], deadLetters: [] };
  const ids = endpoints.map((endpoint) => endpoint.id);
  const enabled = endpoints.map((endpoint) => endpoint.enabled);
  return queueTo(tx, Prisma.sql`SELECT id, enabled FROM unnest(${ids}::uuid[], ${enabled}::boolean[]) AS given (id, enabled)`, input);
}

/** One event to every endpoint of the account subscribed to it. */
export async function queueToSubscribers(tx: Tx, input: QueuedEvent): Promise<QueueResult> {
  return queueTo(
    tx,
    Prisma.sql`SELECT id, enabled FROM webhook_endpoint WHERE account_id = ${input.accountId}::uuid AND ${input.event} = ANY (events)`,
    input,
  );
}

type QueuedRow = {
  kind: "created" | "existing" | "disabled";
  id: string | null;
  endpoint_id: string;
  status: string | null;
  attempt_count: number | null;
};

async function queueTo(tx: Tx, endpoints: Prisma.Sql, input: QueuedEvent): Promise<QueueResult> {
  const occurredAt = input.occurredAt ?? new Date();
  // Plain JSON: what is stored is exactly what will be sent (each delivery adds its own id).
  const body = {
    webhook_event: input.event,
    webhook_timestamp: occurredAt.toISOString(),
    webhook_data: JSON.parse(JSON.stringify(input.data)) as unknown,
  };
  // One statement (every finished generation comes here, inside its transition): the endpoints,
  // a delivery for each enabled one (one insert order for every emit: overlapping emits wait on
  // each other's rows, never deadlock), the deliveries this event key already had, and the
  // disabled endpoints, which get dead letters below.
  const rows = await tx.$queryRaw<QueuedRow[]>`
    WITH endpoint AS (${endpoints}),
    planned AS (SELECT id AS endpoint_id, gen_random_uuid() AS id FROM endpoint WHERE enabled),
    inserted AS (
      INSERT INTO webhook_delivery (id, endpoint_id, account_id, event, event_key, payload, created_at)
      SELECT id, endpoint_id, ${input.accountId}::uuid, ${input.event}, ${input.eventKey}, ${JSON.stringify(body)}::jsonb || jsonb_build_object('webhook_delivery_id', id::text), ${occurredAt}
        FROM planned ORDER BY endpoint_id
      ON CONFLICT (endpoint_id, event_key) DO NOTHING
      RETURNING id, endpoint_id)
    SELECT 'created' AS kind, id::text AS id, endpoint_id::text AS endpoint_id, 'pending' AS status, 0 AS attempt_count FROM inserted
    UNION ALL
    SELECT 'existing', d.id::text, d.endpoint_id::text, d.status::text, d.attempt_count
      FROM endpoint e, LATERAL (SELECT * FROM webhook_delivery WHERE endpoint_id = e.id AND event_key = ${input.eventKey}) d WHERE e.enabled
    UNION ALL
    SELECT 'disabled', NULL, id::text, NULL, NULL FROM endpoint WHERE NOT enabled`;

  const result: QueueResult = { created: [], duplicates: [], deadLetters: [] };
  const toRequest: string[] = [];
  for (const row of rows) {
    if (row.kind === "created") {
      result.created.push(row.id as string);
      toRequest.push(row.id as string);
    } else if (row.kind === "existing") {
      result.duplicates.push(row.id as string);
      // Created by an emit that stopped before its request went out: request it (same event id).
      if (row.status === "pending" && row.attempt_count === 0) toRequest.push(row.id as string);
    }
  }
  await requestDeliveriesInTransaction(
    tx,
    toRequest.map((deliveryId) => ({ deliveryId, fromAttempt: 1 })),
  );

  const disabled = rows.filter((row) => row.kind === "disabled").map((row) => row.endpoint_id);
  if (disabled.length > 0) result.deadLetters.push(...(await deadLetters(tx, disabled.sort(), input, body)));
  return result;
}

/** Disabled endpoints keep the event as a dead letter (one per endpoint and event key). */
async function deadLetters(tx: Tx, endpointIds: string[], input: QueuedEvent, body: Record<string, unknown>): Promise<string[]> {
  const payload = body as unknown as Prisma.InputJsonObject;
  await tx.deadLetter.createMany({
    data: endpointIds.map((endpointId) => ({
      endpointId,
      accountId: input.accountId,
      event: input.event,
      eventKey: input.eventKey,
      payload,
      reason: "endpoint_disabled",
    })),
    skipDuplicates: true,
  });
  const rows = await tx.deadLetter.findMany({ where: { endpointId: { in: endpointIds }, eventKey: input.eventKey }, select: { id: true } });
  return rows.map((row) => row.id);
}

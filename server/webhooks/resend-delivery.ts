import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { scopeWhere, type AccountScope } from "../accounts/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import { db } from "../db";
import { ApiError, invalidRequest } from "../errors";
import { requestDeliveries } from "./queue-deliveries";

// Re-sends a failed delivery (dashboard and CLI): the same body, a fresh run on the same retry
// schedule, attempts numbered on from the last one. Only `failed` deliveries qualify, and the
// switch back to `pending` is conditional, so a double click starts one run.

export type ResendDeliveryInput = {
  deliveryId: string;
  actor: ActivityActor;
};

export async function resendDelivery(scope: AccountScope, input: ResendDeliveryInput): Promise<{ delivery_id: string; delivery_status: "pending"; from_attempt: number }> {
  const delivery = z.guid().safeParse(input.deliveryId).success
    ? await db.webhookDelivery.findFirst({ where: { id: input.deliveryId, ...scopeWhere(scope) }, include: { endpoint: { select: { url: true, enabled: true } } } })
    : null;
  if (!delivery) throw new ApiError("ERR1006", "Webhook delivery not found.", { delivery_id: input.deliveryId });
  if (!delivery.endpoint.enabled) {
    throw invalidRequest("The webhook endpoint is disabled: enable it before re-sending.", [{ field: "delivery_id", message: "endpoint is disabled" }]);
  }

  const fromAttempt = delivery.attemptCount + 1;
  const switched = await db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({ where: { id: delivery.id, status: "failed" }, data: { status: "pending" } });
    if (count === 0) return false;
    await recordActivity(tx, {
      accountId: delivery.accountId,
      actor: input.actor,
      category: "webhook",
      action: "webhook.delivery_resent",
      description: `Webhook delivery ${delivery.id} (${delivery.event}) re-sent to ${delivery.endpoint.url}`,
      metadata: { delivery_id: delivery.id, webhook_id: delivery.endpointId, event: delivery.event, from_attempt: fromAttempt },
    });
    return true;
  });
  if (!switched) {
    throw invalidRequest(`Only a failed delivery can be re-sent; this one is ${delivery.status === "failed" ? "being re-sent" : delivery.status}.`, [{ field: "delivery_id", message: "not failed" }]);
  }

  try {
    await requestDeliveries([{ deliveryId: delivery.id, fromAttempt, eventId: `webhook-delivery:${delivery.id}:resend:${randomUUID()}` }]);
  } catch (error) {
    await db.webhookDelivery.updateMany({ where: { id: delivery.id, status: "pending", attemptCount: delivery.attemptCount }, data: { status: "failed" } });
    throw error;
  }
  return { delivery_id: delivery.id, delivery_status: "pending", from_attempt: fromAttempt };
}

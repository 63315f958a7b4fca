import "server-only";
import { randomUUID } from "node:crypto";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Db, Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { requestDeliveries } from "./queue-deliveries";
import { isGuid } from "../base/guid";

// Re-sends a failed delivery (dashboard and CLI): the same body, a fresh run on the same retry
// schedule, attempts numbered on from the last one. Only `failed` deliveries qualify, and the
// switch back to `pending` is conditional, so a double click starts one run. Two parts: the
// switch in the caller's transaction (queueResend), then, once it committed, the run's request
// (requestResend).

export type ResendDeliveryInput = {
  deliveryId: string;
  actor: ActivityActor;
};

/** A delivery switched back to `pending`, its run not requested yet. */
export type ResentDelivery = { deliveryId: string; fromAttempt: number; attemptCount: number };

export type ResendAnswer = { delivery_id: string; delivery_status: "pending"; from_attempt: number };

export async function queueResend(tx: Tx, scope: AccountScope, input: ResendDeliveryInput): Promise<ResentDelivery> {
  const delivery = isGuid(input.deliveryId)
    ? await tx.webhookDelivery.findFirst({
        where: { id: input.deliveryId, ...scopeWhere(scope) },
        include: { endpoint: { select: { url: true, enabled: true } } },
      })
    : null;
  if (!delivery) throw new ApiError("ERR1006", "Webhook delivery not found.", { delivery_id: input.deliveryId });
  if (!delivery.endpoint.enabled) {
    throw invalidRequest("The webhook endpoint is disabled: enable it before re-sending.", [
      { field: "delivery_id", message: "endpoint is disabled" },
    ]);
  }

  const fromAttempt = delivery.attemptCount + 1;
  const { count } = await tx.webhookDelivery.updateMany({ where: { id: delivery.id, status: "failed" }, data: { status: "pending" } });
  if (count === 0) {
    throw invalidRequest(
      `Only a failed delivery can be re-sent; this one is ${delivery.status === "failed" ? "being re-sent" : delivery.status}.`,
      [{ field: "delivery_id", message: "not failed" }],
    );
  }
  await recordActivity(tx, {
    accountId: delivery.accountId,
    actor: input.actor,
    category: "webhook",
    action: "webhook.delivery_resent",
    description: `Webhook delivery ${delivery.id} (${delivery.event}) re-sent to ${delivery.endpoint.url}`,
    metadata: { delivery_id: delivery.id, webhook_id: delivery.endpointId, event: delivery.event, from_attempt: fromAttempt },
  });
  return { deliveryId: delivery.id, fromAttempt, attemptCount: delivery.attemptCount };
}

/**
 * After the switch committed, the caller awaits this: the run's request. If it cannot be sent,
 * the delivery goes back to `failed` (so it can be re-sent again) and the error reaches the caller.
 */
export async function requestResend(db: Db, resent: ResentDelivery): Promise<ResendAnswer> {
  const { deliveryId, fromAttempt, attemptCount } = resent;
  try {
    await requestDeliveries([{ deliveryId, fromAttempt, eventId: `webhook-delivery:${deliveryId}:resend:${randomUUID()}` }]);
  } catch (error) {
    // One statement after the switch it undoes committed. Untouched if the run has started after all.
    await db.webhookDelivery.updateMany({ where: { id: deliveryId, status: "pending", attemptCount }, data: { status: "failed" } });
    throw error;
  }
  return { delivery_id: deliveryId, delivery_status: "pending", from_attempt: fromAttempt };
}

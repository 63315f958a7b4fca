import "server-only";
import { randomUUID } from "node:crypto";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import type { Prisma } from "../base/generated/prisma/client";
import { ApiError, invalidRequest } from "../base/error-table";
import { requestDeliveriesInTransaction } from "./queue-deliveries";
import type { WebhookBody } from "./webhook-body";
import { isGuid } from "../base/guid";

// Replays a dead letter once its endpoint is enabled again: a new delivery with
// event key `replay:<dead letter id>` and the original event and time, then the usual delivery
// run, requested once the caller's transaction committed. A dead letter is replayed once; asking
// again answers with the same delivery.

export type ReplayDeadLetterInput = {
  deadLetterId: string;
  actor: ActivityActor;
};

export type ReplayedDeadLetter = { dead_letter_id: string; delivery_id: string; already_replayed: boolean };

export async function queueDeadLetterReplay(tx: Tx, scope: AccountScope, input: ReplayDeadLetterInput): Promise<ReplayedDeadLetter> {
  const outcome = await replayOnce(tx, scope, input);
  // Also on a repeat: a replay whose request never went out gets it now (same event id, so at most one run).
  const delivery = await tx.webhookDelivery.findUnique({ where: { id: outcome.deliveryId }, select: { status: true, attemptCount: true } });
  if (delivery?.status === "pending" && delivery.attemptCount === 0)
    await requestDeliveriesInTransaction(tx, [{ deliveryId: outcome.deliveryId, fromAttempt: 1 }]);
  return { dead_letter_id: input.deadLetterId, delivery_id: outcome.deliveryId, already_replayed: outcome.already };
}

/** The dead letter locked, then its replay delivery: new, or the one an earlier replay made. */
async function replayOnce(tx: Tx, scope: AccountScope, input: ReplayDeadLetterInput): Promise<{ deliveryId: string; already: boolean }> {
  const known = isGuid(input.deadLetterId);
  const [locked] = known
    ? await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM dead_letter WHERE id = ${input.deadLetterId}::uuid FOR UPDATE`
    : [];
  const letter = locked
    ? await tx.deadLetter.findFirst({
        where: { id: locked.id, ...scopeWhere(scope) },
        include: { endpoint: { select: { url: true, enabled: true } } },
      })
    : null;
  if (!letter) throw new ApiError("ERR1006", "Dead letter not found.", { dead_letter_id: input.deadLetterId });
  if (letter.replayedAt && letter.replayDeliveryId) return { deliveryId: letter.replayDeliveryId, already: true };
  if (!letter.endpoint.enabled) {
    throw invalidRequest("The webhook endpoint is still disabled: enable it before replaying its dead letters.", [
      { field: "dead_letter_id", message: "endpoint is disabled" },
    ]);
  }

  const deliveryId = randomUUID();
  const stored = letter.payload as unknown as Omit<WebhookBody, "webhook_delivery_id">;
  const body: WebhookBody = {
    webhook_event: stored.webhook_event,
    webhook_timestamp: stored.webhook_timestamp,
    webhook_delivery_id: deliveryId,
    webhook_data: stored.webhook_data,
  };
  await tx.webhookDelivery.create({
    data: {
      id: deliveryId,
      endpointId: letter.endpointId,
      accountId: letter.accountId,
      event: letter.event,
      eventKey: `replay:${letter.id}`,
      payload: body as unknown as Prisma.InputJsonObject,
    },
  });
  await tx.deadLetter.update({ where: { id: letter.id }, data: { replayedAt: new Date(), replayDeliveryId: deliveryId } });
  await recordActivity(tx, {
    accountId: letter.accountId,
    actor: input.actor,
    category: "webhook",
    action: "webhook.dead_letter_replayed",
    description: `Dead letter ${letter.id} (${letter.event}) replayed to ${letter.endpoint.url}`,
    metadata: { dead_letter_id: letter.id, delivery_id: deliveryId, webhook_id: letter.endpointId, event: letter.event },
  });
  return { deliveryId, already: false };
}

import "server-only";
import { randomUUID } from "node:crypto";
import type { AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { findWebhookEndpoint } from "./find-endpoint";
import { queueDeliveries } from "./queue-deliveries";

// "Send test event": a `webhook.test` delivery to this endpoint only, whatever it subscribes to,
// signed and retried like any other, so a receiver can be checked end to end. The delivery and
// its activity entry commit together; the run is requested after commit. Its data is a sample
// generation record (the caller's `sample`) with `test: true`, `webhook_id` and `message`.

export type SendTestEventInput = {
  webhookId: string;
  actor: ActivityActor;
  /** The generation record the event carries: sampleGenerationRecord (server/generations/records/sample-record.ts). */
  sample: Record<string, unknown>;
};

export type SentTestEvent = { webhook_id: string; delivery_id: string; webhook_event: "webhook.test" };

export async function queueTestEvent(tx: Tx, scope: AccountScope, input: SendTestEventInput): Promise<SentTestEvent> {
  const endpoint = await findWebhookEndpoint(tx, scope, input.webhookId);
  if (!endpoint.enabled)
    throw invalidRequest("The webhook endpoint is disabled: enable it before sending a test event.", [
      { field: "webhook_id", message: "endpoint is disabled" },
    ]);

  const queued = await queueDeliveries(tx, [endpoint], {
    accountId: endpoint.accountId,
    event: "webhook.test",
    eventKey: `webhook.test:${randomUUID()}`,
    data: {
      ...input.sample,
      account_id: endpoint.accountId,
      test: true,
      webhook_id: endpoint.id,
      message: "A test event from Darkroom: your endpoint receives and verifies webhooks.",
    },
  });
  const deliveryId = queued.created[0] as string;
  await recordActivity(tx, {
    accountId: endpoint.accountId,
    actor: input.actor,
    category: "webhook",
    action: "webhook.test_sent",
    description: `Test event sent to webhook endpoint ${endpoint.url}`,
    metadata: { webhook_id: endpoint.id, delivery_id: deliveryId },
  });
  return { webhook_id: endpoint.id, delivery_id: deliveryId, webhook_event: "webhook.test" };
}

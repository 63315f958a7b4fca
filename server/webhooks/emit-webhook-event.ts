import "server-only";
import type { Tx } from "../base/db";
import { isWebhookEventKind, type WebhookEventKind } from "./event-kinds";
import { queueToSubscribers, type QueueResult } from "./queue-deliveries";
import { isGuid } from "../base/guid";

// The one way an event reaches customer endpoints: every endpoint of the account subscribed to it
// gets a delivery (enabled) or a dead letter (disabled). `eventKey` names the event itself:
// `generation.completed:<generation id>`, `credits.low_balance:<unique>`; emitting the same key
// again is a no-op per endpoint. The rows join the caller's transaction; the delivery runs are
// requested after it commits.

export type EmitWebhookEventInput = {
  accountId: string;
  event: WebhookEventKind;
  eventKey: string;
  /** The event's `webhook_data`: plain JSON. */
  data: Record<string, unknown>;
};

export async function queueWebhookEvent(tx: Tx, input: EmitWebhookEventInput): Promise<QueueResult> {
  if (!isWebhookEventKind(input.event)) throw new Error(`Unknown webhook event: ${String(input.event)}`);
  if (input.eventKey.trim() === "") throw new Error("A webhook event needs an event key");
  if (!isGuid(input.accountId)) return { created: [], duplicates: [], deadLetters: [] };
  return queueToSubscribers(tx, input);
}

import "server-only";
import type { WebhookEventKind } from "./event-kinds";

// The body every delivery carries. Stored with the delivery; serialized in this
// key order when sent.

export type WebhookBody = {
  webhook_event: WebhookEventKind;
  /** When the event occurred (ISO 8601); the signature carries the time of sending. */
  webhook_timestamp: string;
  webhook_delivery_id: string;
  webhook_data: Record<string, unknown>;
};

/** The raw body of one attempt: fixed key order, whatever order the stored JSON came back in. */
export function serializeWebhookBody(body: WebhookBody): string {
  return JSON.stringify({
    webhook_event: body.webhook_event,
    webhook_timestamp: body.webhook_timestamp,
    webhook_delivery_id: body.webhook_delivery_id,
    webhook_data: body.webhook_data,
  });
}

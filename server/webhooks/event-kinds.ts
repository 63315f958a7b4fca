import { invalidRequest } from "../error-table";

// The events an endpoint can subscribe to. `webhook.test` is only ever sent by
// the "send test event" action, so new endpoints subscribe to everything else.

export const webhookEventKinds = [
  "generation.started",
  "generation.completed",
  "generation.failed",
  "generation.canceled",
  "credits.low_balance",
  "apikey.spend_alert",
  "account.spend_alert",
  "webhook.test",
] as const;

export type WebhookEventKind = (typeof webhookEventKinds)[number];

export const defaultWebhookEvents: WebhookEventKind[] = webhookEventKinds.filter((kind) => kind !== "webhook.test");

export function isWebhookEventKind(value: string): value is WebhookEventKind {
  return (webhookEventKinds as readonly string[]).includes(value);
}

/** The subscription list: known kinds, at least one, no repeats; undefined means the default. */
export function parseWebhookEvents(input: readonly string[] | undefined, field = "events"): WebhookEventKind[] {
  if (input === undefined) return [...defaultWebhookEvents];
  const unknown = input.filter((kind) => !isWebhookEventKind(kind));
  if (unknown.length > 0) {
    throw invalidRequest(`Unknown webhook event: ${unknown.join(", ")}. Known events: ${webhookEventKinds.join(", ")}.`, [{ field, message: `must be a list of ${webhookEventKinds.join(", ")}` }]);
  }
  const events = webhookEventKinds.filter((kind) => input.includes(kind));
  if (events.length === 0) throw invalidRequest("A webhook endpoint needs at least one event.", [{ field, message: "must name at least one event" }]);
  return events;
}

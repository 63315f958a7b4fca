import { invalidRequest } from "../base/error-table";

// The events an endpoint can subscribe to. `webhook.test` is only ever sent by the "send test
// event" action. An endpoint created without a list gets the events the API was published with
// (ARCHITECTURE §11): a client that narrowed every event but `credits.low_balance` to a generation
// event must never receive a kind it did not ask for. Every kind added since is opt-in. Lists are
// stored explicitly per endpoint, so changing this default leaves existing endpoints as they were.

export const webhookEventKinds = [
  "generation.started",
  "generation.completed",
  "generation.failed",
  "generation.canceled",
  "credits.low_balance",
  "apikey.spend_alert",
  "account.spend_alert",
  "credits.auto_top_up_succeeded",
  "credits.auto_top_up_failed",
  "webhook.test",
] as const;

export type WebhookEventKind = (typeof webhookEventKinds)[number];

/** The published set: what an endpoint created without a list subscribes to. */
export const defaultWebhookEvents: WebhookEventKind[] = [
  "generation.started",
  "generation.completed",
  "generation.failed",
  "generation.canceled",
  "credits.low_balance",
];

/** Kinds added after publication: sent only to endpoints that list them. */
export const optInWebhookEvents: WebhookEventKind[] = webhookEventKinds.filter(
  (kind) => kind !== "webhook.test" && !defaultWebhookEvents.includes(kind),
);

export function isWebhookEventKind(value: string): value is WebhookEventKind {
  return (webhookEventKinds as readonly string[]).includes(value);
}

/** The subscription list: known kinds, at least one, no repeats; undefined means the default. */
export function parseWebhookEvents(input: readonly string[] | undefined, field = "events"): WebhookEventKind[] {
  if (input === undefined) return [...defaultWebhookEvents];
  const unknown = input.filter((kind) => !isWebhookEventKind(kind));
  if (unknown.length > 0) {
    throw invalidRequest(`Unknown webhook event: ${unknown.join(", ")}. Known events: ${webhookEventKinds.join(", ")}.`, [
      { field, message: `must be a list of ${webhookEventKinds.join(", ")}` },
    ]);
  }
  const events = webhookEventKinds.filter((kind) => input.includes(kind));
  if (events.length === 0)
    throw invalidRequest("A webhook endpoint needs at least one event.", [{ field, message: "must name at least one event" }]);
  return events;
}

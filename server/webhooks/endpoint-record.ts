import type { WebhookEndpoint } from "../base/generated/prisma/client";

// An endpoint as the dashboard and the CLI show it. Never the secret: that is shown once, by
// create and roll-secret.

export type WebhookEndpointRecord = ReturnType<typeof toWebhookEndpointRecord>;

export function toWebhookEndpointRecord(row: WebhookEndpoint) {
  return {
    webhook_id: row.id,
    account_id: row.accountId,
    webhook_url: row.url,
    webhook_description: row.description,
    webhook_events: row.events,
    webhook_enabled: row.enabled,
    webhook_disabled_at: row.disabledAt?.toISOString() ?? null,
    webhook_created_at: row.createdAt.toISOString(),
  };
}

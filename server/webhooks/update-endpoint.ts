import "server-only";
import type { AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { findWebhookEndpoint } from "./find-endpoint";

// Enables or disables an endpoint. While disabled, subscribed events become dead letters,
// replayable once it is enabled again. Setting the current state changes nothing.

export type UpdateWebhookEndpointInput = {
  webhookId: string;
  enabled: boolean;
  actor: ActivityActor;
};

export async function updateWebhookEndpoint(
  tx: Tx,
  scope: AccountScope,
  input: UpdateWebhookEndpointInput,
): Promise<{ webhook_id: string; enabled: boolean; changed: boolean }> {
  const endpoint = await findWebhookEndpoint(tx, scope, input.webhookId);
  const { count } = await tx.webhookEndpoint.updateMany({
    where: { id: endpoint.id, enabled: !input.enabled },
    data: { enabled: input.enabled, disabledAt: input.enabled ? null : new Date() },
  });
  if (count === 0) return { webhook_id: endpoint.id, enabled: input.enabled, changed: false };

  const verb = input.enabled ? "enabled" : "disabled";
  await recordActivity(tx, {
    accountId: endpoint.accountId,
    actor: input.actor,
    category: "webhook",
    action: `webhook.${verb}`,
    description: `Webhook endpoint ${endpoint.url} ${verb}`,
    metadata: { webhook_id: endpoint.id, url: endpoint.url },
  });
  return { webhook_id: endpoint.id, enabled: input.enabled, changed: true };
}

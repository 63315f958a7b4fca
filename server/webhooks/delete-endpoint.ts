import "server-only";
import { accountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { findWebhookEndpoint } from "./find-endpoint";

// Removes an endpoint for good: its deliveries, attempts and dead letters go with it (cascade).
// A run already queued for one of its deliveries finds nothing and sends nothing (deliver.ts).

export type DeleteWebhookEndpointInput = {
  webhookId: string;
  /** The endpoint must belong to this account: another account's is ERR1006. */
  accountId: string;
  actor: ActivityActor;
};

export async function deleteWebhookEndpoint(tx: Tx, input: DeleteWebhookEndpointInput): Promise<{ webhook_id: string; deleted: true }> {
  const endpoint = await findWebhookEndpoint(tx, accountScope(input.accountId), input.webhookId);
  // Conditional, so a concurrent second delete is ERR1006 rather than a failed query.
  const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: endpoint.id } });
  if (count === 0) throw new ApiError("ERR1006", "Webhook endpoint not found.", { webhook_id: input.webhookId });
  await recordActivity(tx, {
    accountId: endpoint.accountId,
    actor: input.actor,
    category: "webhook",
    action: "webhook.deleted",
    description: `Webhook endpoint ${endpoint.url} deleted`,
    metadata: { webhook_id: endpoint.id, url: endpoint.url },
  });
  return { webhook_id: endpoint.id, deleted: true };
}

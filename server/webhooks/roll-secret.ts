import "server-only";
import type { AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { newWebhookSecret, sealedSecretColumns } from "./endpoint-secret";
import { findWebhookEndpoint } from "./find-endpoint";

// Replaces the signing secret at once: attempts from now on are signed with the new one. The new
// secret is returned once.

export type RollWebhookSecretInput = {
  webhookId: string;
  actor: ActivityActor;
};

export async function rollWebhookSecret(
  tx: Tx,
  scope: AccountScope,
  input: RollWebhookSecretInput,
): Promise<{ webhook_id: string; secret: string }> {
  const endpoint = await findWebhookEndpoint(tx, scope, input.webhookId);
  const secret = newWebhookSecret();
  await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: sealedSecretColumns(endpoint.id, secret) });
  await recordActivity(tx, {
    accountId: endpoint.accountId,
    actor: input.actor,
    category: "webhook",
    action: "webhook.secret_rolled",
    description: `Signing secret of webhook endpoint ${endpoint.url} rolled`,
    metadata: { webhook_id: endpoint.id, url: endpoint.url },
  });
  return { webhook_id: endpoint.id, secret };
}

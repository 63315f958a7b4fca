import { randomUUID } from "node:crypto";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { toWebhookEndpointRecord, type WebhookEndpointRecord } from "./endpoint-record";
import { newWebhookSecret, sealedSecretColumns } from "./endpoint-secret";
import { checkEndpointUrl, type WebhookNetworkOptions } from "./endpoint-url";
import { parseWebhookEvents } from "./event-kinds";
import { isGuid } from "../base/guid";

// Registers a webhook endpoint. The URL must pass the destination rules now and
// will be checked again at every delivery. The secret is returned once.

export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;

export type CreateWebhookEndpointInput = {
  accountId: string;
  url: string;
  /** Defaults to the published set (defaultWebhookEvents); newer kinds are opt-in. */
  events?: readonly string[];
  description?: string | null;
  actor: ActivityActor;
  network?: WebhookNetworkOptions;
};

export type CreatedWebhookEndpoint = WebhookEndpointRecord & { secret: string };

function validateDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim() ?? "";
  if ([...trimmed].length > MAX_WEBHOOK_DESCRIPTION_LENGTH) {
    throw invalidRequest(`The description must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters.`, [
      { field: "description", message: `must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters` },
    ]);
  }
  return trimmed === "" ? null : trimmed;
}

export async function createWebhookEndpoint(tx: Tx, input: CreateWebhookEndpointInput): Promise<CreatedWebhookEndpoint> {
  const events = parseWebhookEvents(input.events);
  const description = validateDescription(input.description);
  const url = await checkEndpointUrl(input.url, input.network);

  const account = isGuid(input.accountId) ? await tx.account.findUnique({ where: { id: input.accountId }, select: { id: true } }) : null;
  if (!account) throw new ApiError("ERR1006", "Account not found.", { account_id: input.accountId });

  const id = randomUUID();
  const secret = newWebhookSecret();
  const row = await tx.webhookEndpoint.create({
    data: { id, accountId: account.id, url, description, events, ...sealedSecretColumns(id, secret) },
  });
  await recordActivity(tx, {
    accountId: account.id,
    actor: input.actor,
    category: "webhook",
    action: "webhook.created",
    description: `Webhook endpoint ${url} created`,
    metadata: { webhook_id: row.id, url, events },
  });
  return { ...toWebhookEndpointRecord(row), secret };
}

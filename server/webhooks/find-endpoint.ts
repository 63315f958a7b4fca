import "server-only";
import { scopeWhere, type AccountScope } from "../account-scope";
import type { Db } from "../db";
import type { WebhookEndpoint } from "../generated/prisma/client";
import { ApiError } from "../error-table";
import { isGuid } from "../guid";

/** The endpoint, or ERR1006; under an account scope another account's endpoint is not found. */
export async function findWebhookEndpoint(db: Db, scope: AccountScope, webhookId: string): Promise<WebhookEndpoint> {
  const row = isGuid(webhookId) ? await db.webhookEndpoint.findFirst({ where: { id: webhookId, ...scopeWhere(scope) } }) : null;
  if (!row) throw new ApiError("ERR1006", "Webhook endpoint not found.", { webhook_id: webhookId });
  return row;
}

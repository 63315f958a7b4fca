import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import type { WebhookEndpoint } from "../base/generated/prisma/client";
import { ApiError } from "../base/error-table";
import { isGuid } from "../base/guid";

/** The endpoint, or ERR1006; under an account scope another account's endpoint is not found. */
export async function findWebhookEndpoint(db: Db, scope: AccountScope, webhookId: string): Promise<WebhookEndpoint> {
  const row = isGuid(webhookId) ? await db.webhookEndpoint.findFirst({ where: { id: webhookId, ...scopeWhere(scope) } }) : null;
  if (!row) throw new ApiError("ERR1006", "Webhook endpoint not found.", { webhook_id: webhookId });
  return row;
}

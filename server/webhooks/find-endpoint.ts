import { z } from "zod";
import type { Db } from "../db";
import type { WebhookEndpoint } from "../generated/prisma/client";
import { ApiError } from "../http/errors";

/** The endpoint, or ERR1006; with `accountId` (dashboard callers) it must belong to that account. */
export async function findWebhookEndpoint(db: Db, webhookId: string, accountId?: string): Promise<WebhookEndpoint> {
  const row = z.guid().safeParse(webhookId).success ? await db.webhookEndpoint.findUnique({ where: { id: webhookId } }) : null;
  if (!row || (accountId !== undefined && row.accountId !== accountId)) {
    throw new ApiError("ERR1006", "Webhook endpoint not found.", { webhook_id: webhookId });
  }
  return row;
}

import "server-only";
import type { Db } from "../base/db";
import { toWebhookEndpointRecord, type WebhookEndpointRecord } from "./endpoint-record";
import { isGuid } from "../base/guid";

/** An account's endpoints, newest first, without their secrets. */
export async function listWebhookEndpoints(db: Db, accountId: string): Promise<WebhookEndpointRecord[]> {
  if (!isGuid(accountId)) return [];
  const rows = await db.webhookEndpoint.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(toWebhookEndpointRecord);
}

import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { isGuid } from "../base/guid";

// What the endpoint list shows beside each endpoint: how its deliveries of the last 24 hours
// ended, and when it was last sent an event. Two grouped queries for the whole account.

export const WEBHOOK_STATS_WINDOW_MS = 24 * 3600_000;

export type WebhookEndpointStats = {
  webhook_id: string;
  last_24h: { delivered: number; failed: number; pending: number };
  /** When its newest delivery was queued; null when it never had one (or they were purged). */
  last_delivery_at: string | null;
};

/** One entry per endpoint of the account, those without deliveries included. */
export async function webhookEndpointStats(
  db: Db,
  scope: OneAccount,
  { now = new Date() }: { now?: Date } = {},
): Promise<WebhookEndpointStats[]> {
  const { accountId } = scope;
  if (!isGuid(accountId)) return [];
  const since = new Date(now.getTime() - WEBHOOK_STATS_WINDOW_MS);
  const [endpoints, recent, newest] = await Promise.all([
    db.webhookEndpoint.findMany({ where: { accountId }, select: { id: true }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] }),
    db.webhookDelivery.groupBy({ by: ["endpointId", "status"], where: { accountId, createdAt: { gte: since } }, _count: { _all: true } }),
    db.webhookDelivery.groupBy({ by: ["endpointId"], where: { accountId }, _max: { createdAt: true } }),
  ]);
  return endpoints.map(({ id }) => {
    const last_24h = { delivered: 0, failed: 0, pending: 0 };
    for (const group of recent) if (group.endpointId === id) last_24h[group.status] = group._count._all;
    const lastDelivery = newest.find((group) => group.endpointId === id)?._max.createdAt ?? null;
    return { webhook_id: id, last_24h, last_delivery_at: lastDelivery?.toISOString() ?? null };
  });
}

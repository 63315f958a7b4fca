import "server-only";
import { z } from "zod";
import type { OneAccount } from "../base/account-scope";
import type { Prisma, PrismaClient } from "../base/generated/prisma/client";
import { DeliveryStatus } from "../base/generated/prisma/enums";
import { webhookEventKinds } from "./event-kinds";
import { findWebhookEndpoint } from "./find-endpoint";

// The delivery log (dashboard): newest first, filterable, paginated. Each row carries its newest
// attempt's status code and error, so a list shows why a delivery failed without opening it.

/** Pages of webhook logs (deliveries, dead letters): 25 by default, at most 100. */
export const webhookLogPage = {
  limit: z.int().min(1).max(100).default(25),
  offset: z.int().min(0).default(0),
};

export const webhookDeliveryFilters = z.object({
  webhookId: z.string().max(100).optional(),
  status: z.enum(DeliveryStatus).optional(),
  event: z.enum(webhookEventKinds).optional(),
  ...webhookLogPage,
});

export const webhookDeliverySummaryInclude = {
  endpoint: { select: { url: true } },
  attempts: { orderBy: { attemptNumber: "desc" }, take: 1, select: { statusCode: true, error: true } },
} satisfies Prisma.WebhookDeliveryInclude;

type DeliveryWithSummary = Prisma.WebhookDeliveryGetPayload<{ include: typeof webhookDeliverySummaryInclude }>;

export function toWebhookDeliverySummary(row: DeliveryWithSummary) {
  const last = row.attempts[0];
  return {
    delivery_id: row.id,
    webhook_id: row.endpointId,
    webhook_url: row.endpoint.url,
    event: row.event,
    status: row.status,
    attempt_count: row.attemptCount,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    last_status_code: last?.statusCode ?? null,
    last_error: last?.error ?? null,
  };
}

export type WebhookDeliverySummary = ReturnType<typeof toWebhookDeliverySummary>;

/** Another account's (or a malformed) webhook id is ERR1006, like one that does not exist. */
export async function listWebhookDeliveries(db: PrismaClient, scope: OneAccount, filters: z.input<typeof webhookDeliveryFilters> = {}) {
  const { accountId } = scope;
  const { webhookId, status, event, limit, offset } = webhookDeliveryFilters.parse(filters);
  if (webhookId !== undefined) await findWebhookEndpoint(db, scope, webhookId);
  const where: Prisma.WebhookDeliveryWhereInput = { accountId, endpointId: webhookId, status, event };
  // One snapshot: the include reads attempts in a second query, and an attempt committed between
  // the two would otherwise show "pending, 0 attempts" beside its HTTP status.
  const [total, rows] = await db.$transaction(
    [
      db.webhookDelivery.count({ where }),
      db.webhookDelivery.findMany({
        where,
        include: webhookDeliverySummaryInclude,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: limit,
        skip: offset,
      }),
    ],
    { isolationLevel: "RepeatableRead" },
  );
  return { data: rows.map(toWebhookDeliverySummary), total, limit, offset };
}

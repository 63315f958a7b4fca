import "server-only";
import { z } from "zod";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { Prisma } from "../base/generated/prisma/client";
import { findWebhookEndpoint } from "./find-endpoint";
import { webhookLogPage } from "./list-deliveries";

// Dead letters: events that reached a disabled endpoint, newest first, each
// replayable once its endpoint is enabled again (replay-dead-letter.ts).

export const deadLetterFilters = z.object({
  webhookId: z.string().max(100).optional(),
  /** true: only replayed ones; false: only those still waiting. */
  replayed: z.boolean().optional(),
  ...webhookLogPage,
});

/** Another account's (or a malformed) webhook id is ERR1006, like one that does not exist. */
export async function listDeadLetters(db: Db, scope: OneAccount, filters: z.input<typeof deadLetterFilters> = {}) {
  const { accountId } = scope;
  const { webhookId, replayed, limit, offset } = deadLetterFilters.parse(filters);
  if (webhookId !== undefined) await findWebhookEndpoint(db, scope, webhookId);
  const where: Prisma.DeadLetterWhereInput = {
    accountId,
    endpointId: webhookId,
    ...(replayed === undefined ? {} : { replayedAt: replayed ? { not: null } : null }),
  };
  const [total, rows] = await Promise.all([
    db.deadLetter.count({ where }),
    db.deadLetter.findMany({
      where,
      include: { endpoint: { select: { url: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      skip: offset,
    }),
  ]);
  const data = rows.map((row) => ({
    dead_letter_id: row.id,
    webhook_id: row.endpointId,
    webhook_url: row.endpoint.url,
    event: row.event,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
    replayed_at: row.replayedAt?.toISOString() ?? null,
    replay_delivery_id: row.replayDeliveryId,
  }));
  return { data, total, limit, offset };
}

import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { toWebhookDeliverySummary, webhookDeliverySummaryInclude } from "./list-deliveries";
import { isGuid } from "../base/guid";

// One delivery as the dashboard's detail view shows it: the body it sends and every attempt,
// oldest first. Another account's delivery is ERR1006, exactly like one that does not exist.

export async function getWebhookDelivery(db: Db, scope: OneAccount, { deliveryId }: { deliveryId: string }) {
  const { accountId } = scope;
  const row = isGuid(deliveryId)
    ? await db.webhookDelivery.findFirst({
        where: { id: deliveryId, accountId },
        include: { ...webhookDeliverySummaryInclude, attempts: { orderBy: { attemptNumber: "asc" } } },
      })
    : null;
  if (!row) throw new ApiError("ERR1006", "Webhook delivery not found.", { delivery_id: deliveryId });
  return {
    ...toWebhookDeliverySummary({ ...row, attempts: row.attempts.slice(-1) }),
    payload: row.payload,
    attempts: row.attempts.map((attempt) => ({
      attempt_number: attempt.attemptNumber,
      status_code: attempt.statusCode,
      latency_ms: attempt.latencyMs,
      response_snippet: attempt.responseSnippet,
      error: attempt.error,
      created_at: attempt.createdAt.toISOString(),
    })),
  };
}

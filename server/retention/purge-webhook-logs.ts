import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { deleteInBatches, type PurgeInput } from "./delete-in-batches";

// Webhook event logs older than the plan's window: attempts first (an attempt is never newer than
// its delivery, so the delivery's created_at bounds the index range), then deliveries that are
// over and whose last attempt is old too (a pending one is never purged; its remaining attempts go
// with it by cascade). A dead letter is an event not delivered yet, not a log: it goes only once
// replayed longer ago than the window.

export type PurgedWebhookLogs = { deliveries: number; attempts: number; deadLetters: number };

export async function purgeWebhookLogs(db: Db, scope: OneAccount, { cutoff, batchSize }: PurgeInput): Promise<PurgedWebhookLogs> {
  const { accountId } = scope;
  const before = cutoff.toISOString();
  const attempts = await deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM webhook_attempt WHERE id IN (
        SELECT a.id FROM webhook_delivery d JOIN webhook_attempt a ON a.delivery_id = d.id
        WHERE d.account_id = ${accountId}::uuid AND d.created_at < ${before}::timestamptz AND a.created_at < ${before}::timestamptz
        LIMIT ${limit})`,
  );
  const deliveries = await deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM webhook_delivery WHERE id IN (
        SELECT id FROM webhook_delivery
        WHERE account_id = ${accountId}::uuid AND created_at < ${before}::timestamptz AND status <> 'pending'
          AND (last_attempt_at IS NULL OR last_attempt_at < ${before}::timestamptz)
        LIMIT ${limit})`,
  );
  const deadLetters = await deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM dead_letter WHERE id IN (
        SELECT id FROM dead_letter
        WHERE account_id = ${accountId}::uuid AND created_at < ${before}::timestamptz AND replayed_at < ${before}::timestamptz
        LIMIT ${limit})`,
  );
  return { deliveries, attempts, deadLetters };
}

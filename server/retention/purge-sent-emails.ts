import "server-only";
import { db } from "../base/db";
import { deleteInBatches } from "./delete-in-batches";

// Outbox rows are not an account's data (no plan window): a sent or failed e-mail is kept 7 days
// after it was queued (who, what, when, for support and the dev mailbox), then goes. A queued row
// stays until it is sent. Run by the operator's retention pass (the hourly cron, `retention:run`
// without --account), never by an account-scoped one.

export const SENT_EMAIL_RETENTION_DAYS = 7;

export async function purgeSentEmails(now: Date, batchSize: number): Promise<number> {
  const before = new Date(now.getTime() - SENT_EMAIL_RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
  return deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM email_outbox WHERE id IN (
        SELECT id FROM email_outbox WHERE created_at < ${before}::timestamptz AND status <> 'queued' LIMIT ${limit})`,
  );
}

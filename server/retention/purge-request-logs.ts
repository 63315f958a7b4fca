import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { deleteInBatches, type PurgeInput } from "./delete-in-batches";

// API request logs older than the plan's window (index request_log(account_id, created_at)).

export async function purgeRequestLogs(db: Db, scope: OneAccount, { cutoff, batchSize }: PurgeInput): Promise<number> {
  const { accountId } = scope;
  return deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM request_log WHERE id IN (
        SELECT id FROM request_log WHERE account_id = ${accountId}::uuid AND created_at < ${cutoff.toISOString()}::timestamptz LIMIT ${limit})`,
  );
}

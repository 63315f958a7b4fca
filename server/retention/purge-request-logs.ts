import "server-only";
import { db } from "../db";
import { deleteInBatches } from "./delete-in-batches";

// API request logs older than the plan's window (index request_log(account_id, created_at)).

export async function purgeRequestLogs(accountId: string, cutoff: Date, batchSize: number): Promise<number> {
  return deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM request_log WHERE id IN (
        SELECT id FROM request_log WHERE account_id = ${accountId}::uuid AND created_at < ${cutoff.toISOString()}::timestamptz LIMIT ${limit})`,
  );
}

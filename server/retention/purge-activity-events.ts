import "server-only";
import { db } from "../db";
import { deleteInBatches } from "./delete-in-batches";

// Activity events (the audit feed) older than the plan's window (index activity_event(account_id, created_at)).

export async function purgeActivityEvents(accountId: string, cutoff: Date, batchSize: number): Promise<number> {
  return deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM activity_event WHERE id IN (
        SELECT id FROM activity_event WHERE account_id = ${accountId}::uuid AND created_at < ${cutoff.toISOString()}::timestamptz LIMIT ${limit})`,
  );
}

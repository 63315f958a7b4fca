import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { deleteInBatches, type PurgeInput } from "./delete-in-batches";

// Activity events (the audit feed) older than the plan's window (index activity_event(account_id, created_at)).

export async function purgeActivityEvents(db: Db, scope: OneAccount, { cutoff, batchSize }: PurgeInput): Promise<number> {
  const { accountId } = scope;
  return deleteInBatches(
    batchSize,
    (limit) => db.$executeRaw`
      DELETE FROM activity_event WHERE id IN (
        SELECT id FROM activity_event WHERE account_id = ${accountId}::uuid AND created_at < ${cutoff.toISOString()}::timestamptz LIMIT ${limit})`,
  );
}

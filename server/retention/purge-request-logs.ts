import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { forgetUnusedAccountEntries } from "../request-logs/forget-unused-entries";
import type { PurgeInput } from "./delete-in-batches";

// API request logs older than the plan's window, row by row, a bounded number each pass: the bulk
// goes with whole weeks once they are older than the longest window (purge-request-log-weeks.ts),
// and reads never show a row older than the account's window anyway (server/request-logs). Each
// batch is one DELETE on the partitioned table, so its statement triggers see the rows, through the
// account index from the oldest row: the rows up to the batch's last one. Once none is left, the
// account's callers and routes no row uses any more go too.

/**
 * Batches one account's pass deletes at most (50,000 rows at 500 a batch: more than an hour of
 * Enterprise's rate limits allow, so a pass keeps up); the rest waits for the next pass or its week's drop.
 */
export const REQUEST_LOG_BATCHES_PER_PASS = 100;

export async function purgeRequestLogs(db: Db, scope: OneAccount, { cutoff, batchSize }: PurgeInput): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`Invalid retention batch size ${batchSize}`);
  const account = scope.accountId;
  const before = cutoff.toISOString();
  let total = 0;
  for (let batch = 0; batch < REQUEST_LOG_BATCHES_PER_PASS; batch += 1) {
    const deleted = await db.$executeRaw`
      WITH account AS (SELECT account_no FROM request_log_account WHERE account_id = ${account}::uuid),
      last AS (
        SELECT r.created_at FROM request_log_row r, account a
         WHERE r.account_no = a.account_no
           AND request_log_second(r.created_at) <= request_log_second(${before}::timestamptz) AND r.created_at < ${before}::timestamptz
         ORDER BY request_log_second(r.created_at), r.created_at
         OFFSET ${batchSize - 1} LIMIT 1)
      DELETE FROM request_log_row r USING account a
       WHERE r.account_no = a.account_no
         AND request_log_second(r.created_at) <= request_log_second(coalesce((SELECT created_at FROM last), ${before}::timestamptz))
         AND r.created_at < ${before}::timestamptz
         AND r.created_at <= coalesce((SELECT created_at FROM last), ${before}::timestamptz)`;
    total += deleted;
    if (deleted < batchSize) {
      await forgetUnusedAccountEntries(db, scope, cutoff);
      return total;
    }
  }
  return total;
}

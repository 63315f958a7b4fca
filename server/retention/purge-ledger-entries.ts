import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { deleteInBatches, type PurgeInput } from "./delete-in-batches";

// Credit ledger entries older than the plan's window. The balance is a column on the account and
// the ledger only its history, so deleting entries never changes a balance (and remaining rows keep
// their balance_after). Kept whatever their age: every entry of a generation still in flight, and a
// reservation that is still open (no charge or refund yet), since charging or refunding reads it.
// generation_id is a plain reference (no foreign key), so generations can go first.
// An `add` entry is also what refuses a second add for its source (a contract period, an invoice):
// the same statement that deletes it records its source key in ledger_purged_source, which
// addCredits reads too, so a purge can never let a source be credited twice.

export async function purgeLedgerEntries(db: Db, scope: OneAccount, { cutoff, batchSize }: PurgeInput): Promise<number> {
  const { accountId } = scope;
  return deleteInBatches(batchSize, async (limit) => {
    const [row] = await db.$queryRaw<Array<{ deleted: number }>>`
      WITH gone AS (
        DELETE FROM ledger_entry WHERE id IN (
          SELECT l.id FROM ledger_entry l
          WHERE l.account_id = ${accountId}::uuid AND l.created_at < ${cutoff.toISOString()}::timestamptz
            AND (l.generation_id IS NULL OR (
              NOT EXISTS (SELECT 1 FROM generation g WHERE g.id = l.generation_id AND g.status IN ('pending', 'processing'))
              AND (l.type <> 'reserve' OR EXISTS (SELECT 1 FROM ledger_entry s WHERE s.generation_id = l.generation_id AND s.type IN ('charge', 'refund')))))
          LIMIT ${limit})
        RETURNING account_id, type, source_key, created_at),
      remembered AS (
        INSERT INTO ledger_purged_source (source_key, account_id, added_at)
        SELECT source_key, account_id, created_at FROM gone WHERE type = 'add' AND source_key IS NOT NULL
        ON CONFLICT (source_key) DO NOTHING)
      SELECT count(*)::int AS deleted FROM gone`;
    return row?.deleted ?? 0;
  });
}

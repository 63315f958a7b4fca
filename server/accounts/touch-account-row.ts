import "server-only";
import type { Tx } from "../base/db";
import { executeInTransaction } from "../base/transaction-sql";
import { Prisma } from "../base/generated/prisma/client";

// For a transaction that changes what a create reads under the account's lock, elsewhere than on
// the account row (its low-balance thresholds, a key's spend limit): it writes the row too (its
// updated_at), which takes the lock a credit movement takes and leaves a new row version. The create
// in one statement (server/generations/record-at-once.ts) reads those from a snapshot taken before
// its lock wait, and writes nothing when the row it locked is newer than that snapshot's.

export async function touchAccountRow(tx: Tx, accountId: string): Promise<void> {
  await executeInTransaction(tx, Prisma.sql`UPDATE account SET updated_at = now() WHERE id = ${accountId}::uuid`);
}

import type { Db, Tx } from "../base/db";
import { Prisma } from "../base/generated/prisma/client";
import { queryInTransaction } from "../base/transaction-sql";
import { ApiError } from "../base/error-table";
import { decimalToMillis, type Millicredits } from "../base/money";
import { isGuid } from "../base/guid";

// The account's balance in millicredits. With { lock: true } (inside a transaction) it takes the
// account row lock first: every credit movement does, so movements on one account run one at a
// time and each sees the balance, and the ledger rows, that the previous one committed. The lock is
// FOR NO KEY UPDATE (what an UPDATE of the balance takes anyway): movements, deletions and team
// changes still wait for each other, while rows that merely reference the account (request logs,
// provider attempts, activity, deliveries: their foreign keys take KEY SHARE) go on being written.

export async function getBalance(tx: Db, accountId: string, options?: { lock?: false }): Promise<Millicredits>;
export async function getBalance(tx: Tx, accountId: string, options: { lock: true }): Promise<Millicredits>;
export async function getBalance(tx: Db, accountId: string, options: { lock?: boolean } = {}): Promise<Millicredits> {
  if (!isGuid(accountId)) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  const rows = options.lock
    ? await queryInTransaction<{ balance: string }>(
        tx as Tx,
        Prisma.sql`SELECT credit_balance::text AS balance FROM account WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`,
      )
    : await tx.$queryRaw<Array<{ balance: string }>>`SELECT credit_balance::text AS balance FROM account WHERE id = ${accountId}::uuid`;
  const row = rows[0];
  if (!row) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  return decimalToMillis(row.balance);
}

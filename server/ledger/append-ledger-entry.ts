import type { Tx } from "../base/db";
import type { LedgerEntryType } from "../base/generated/prisma/enums";
import { Prisma } from "../base/generated/prisma/client";
import { millisToDecimalString, type Millicredits } from "../base/money";
import { queryInTransaction } from "../base/transaction-sql";
import { ledgerEntryInsert } from "./ledger-entry-insert";

// A credit movement in the caller's transaction: the entry (./ledger-entry-insert.ts, the one
// INSERT of a ledger row) and the account's balance (when it moves), after the caller locked the
// account row. The ledger knows nothing else:
// what a movement also writes in the same statement (its activity event, the low-balance
// thresholds it crosses) the caller passes in as WITH items, and it reads them back with its own
// final SELECT (server/credits/move-balance.ts). One statement, one round trip: every create and
// every finished generation moves credits.

export type LedgerEntryInput = {
  entryId: string;
  accountId: string;
  type: LedgerEntryType;
  amountMillis: Millicredits;
  balanceBeforeMillis: Millicredits;
  balanceAfterMillis: Millicredits;
  description: string;
  generationId?: string;
  modelIdentifier?: string | null;
  sourceKey?: string;
  createdAt: Date;
};

/**
 * What the caller's part of the statement adds: WITH items after `entry` and `balance` (they may
 * read `entry`), and the SELECT that ends it. `first`: WITH items before `entry`, and the one of
 * them the movement depends on (`onlyAfter`): the entry is written, and the balance moved, only
 * when that item returns a row (a create's generation insert, which its concurrency cap may refuse).
 */
export type LedgerStatementTail = { with: Prisma.Sql[]; select: Prisma.Sql; first?: { items: Prisma.Sql[]; onlyAfter: string } };

export async function appendLedgerEntry<Row>(tx: Tx, input: LedgerEntryInput, tail: LedgerStatementTail): Promise<Row[]> {
  const balanceAfter = millisToDecimalString(input.balanceAfterMillis);
  // A reserve writes the account row even when it moves nothing (a zero cost): every create that
  // records a generation does, which the create in one statement relies on (server/generations/record-at-once.ts).
  const moves = input.balanceAfterMillis !== input.balanceBeforeMillis || input.type === "reserve";
  const extra = tail.with.length > 0 ? Prisma.sql`, ${Prisma.join(tail.with, ", ")}` : Prisma.empty;
  const first = tail.first ? Prisma.sql`${Prisma.join(tail.first.items, ", ")}, ` : Prisma.empty;
  // One row (a SELECT without FROM), or, after a `first` item, one per row that item returned (one or none).
  const source = tail.first ? Prisma.raw(`FROM ${tail.first.onlyAfter}`) : Prisma.empty;
  const written = tail.first ? Prisma.sql`AND EXISTS (SELECT 1 FROM entry)` : Prisma.empty;
  return queryInTransaction<Row>(
    tx,
    Prisma.sql`
    WITH ${first}entry AS (${ledgerEntryInsert(
      {
        id: Prisma.sql`${input.entryId}::uuid`,
        accountId: Prisma.sql`${input.accountId}::uuid`,
        type: Prisma.sql`${input.type}::"LedgerEntryType"`,
        amount: Prisma.sql`${millisToDecimalString(input.amountMillis)}::numeric`,
        balanceAfter: Prisma.sql`${balanceAfter}::numeric`,
        generationId: Prisma.sql`${input.generationId ?? null}::uuid`,
        modelIdentifier: Prisma.sql`${input.modelIdentifier ?? null}::text`,
        description: Prisma.sql`${input.description}::text`,
        sourceKey: Prisma.sql`${input.sourceKey ?? null}::text`,
        createdAt: Prisma.sql`${input.createdAt}::timestamptz`,
      },
      source,
    )}
      RETURNING id
    ), balance AS (
      UPDATE account SET credit_balance = ${balanceAfter}::numeric, updated_at = ${input.createdAt} WHERE id = ${input.accountId}::uuid AND ${moves} ${written}
    )${extra}
    ${tail.select}`,
  );
}

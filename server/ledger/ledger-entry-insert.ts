import { Prisma } from "../base/generated/prisma/client";

/** Each column of a ledger row as SQL: a bound value with its cast (`${id}::uuid`) or a column of `from` (`r.account_id`). */
export type LedgerRowValues = {
  id: Prisma.Sql;
  accountId: Prisma.Sql;
  type: Prisma.Sql;
  amount: Prisma.Sql;
  balanceAfter: Prisma.Sql;
  generationId: Prisma.Sql;
  modelIdentifier: Prisma.Sql;
  description: Prisma.Sql;
  sourceKey: Prisma.Sql;
  createdAt: Prisma.Sql;
};

/**
 * The one INSERT of a `ledger_entry` row, for a WITH item of the caller's statement: one row, or
 * one per row of `from` (`FROM reserved r`). The ledger is append-only: nothing updates or deletes
 * its rows.
 */
export function ledgerEntryInsert(values: LedgerRowValues, from: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO ledger_entry (id, account_id, type, amount, balance_after, generation_id, model_identifier, description, source_key, created_at)
    SELECT ${values.id}, ${values.accountId}, ${values.type}, ${values.amount}, ${values.balanceAfter},
           ${values.generationId}, ${values.modelIdentifier}, ${values.description}, ${values.sourceKey}, ${values.createdAt}
      ${from}`;
}

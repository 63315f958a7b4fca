import { Prisma } from "../base/generated/prisma/client";
import { millisToDecimalString, type Millicredits } from "../base/money";
import { spendCounterChange } from "../spend/spend-counter-change";
import { ledgerEntryInsert } from "../ledger/ledger-entry-insert";
import { activityEventInsert } from "../activity/record-activity";

// The rows reserveCredits (server/credits/reserve-credits.ts) writes for a new generation, as WITH
// items of a caller's autocommit statement that locked the account itself
// (server/generations/record-at-once.ts): the `reserve` ledger entry, the balance, the
// `credit.reserved` activity event and the spend counters, with the same text, amounts and
// metadata. The balance after is computed from the locked row's, in the statement. No low-balance
// threshold is evaluated here: the caller writes nothing when one would fire (its alert records
// are the transaction's to write).

export type ReserveItemsInput = {
  generationId: string;
  amountMillis: Millicredits;
  modelIdentifier: string;
  description: string;
  entryId: string;
  activityId: string;
  createdAt: Date;
};

/**
 * `recorded`: the WITH item that inserted the generation (id, account_id, api_key_id,
 * spend_budget_id, created_at; no row: nothing is written); `locked`: the one with the account's
 * locked row (`id`, `credit_balance`).
 */
export function reserveItems(recorded: string, locked: string, input: ReserveItemsInput): Prisma.Sql[] {
  const amount = millisToDecimalString(input.amountMillis);
  const [from, account] = [Prisma.raw(recorded), Prisma.raw(locked)];
  const spend = spendCounterChange(
    { type: "reserve", generationId: input.generationId, amountMillis: input.amountMillis },
    { generationFrom: recorded },
  );
  return [
    Prisma.sql`entry AS (${ledgerEntryInsert(
      {
        id: Prisma.sql`${input.entryId}::uuid`,
        accountId: Prisma.sql`r.account_id`,
        type: Prisma.sql`'reserve'::"LedgerEntryType"`,
        amount: Prisma.sql`${amount}::numeric`,
        balanceAfter: Prisma.sql`a.credit_balance - ${amount}::numeric`,
        generationId: Prisma.sql`r.id`,
        modelIdentifier: Prisma.sql`${input.modelIdentifier}::text`,
        description: Prisma.sql`${input.description}::text`,
        sourceKey: Prisma.sql`NULL::text`,
        createdAt: Prisma.sql`${input.createdAt}::timestamptz`,
      },
      Prisma.sql`FROM ${from} r JOIN ${account} a ON a.id = r.account_id`,
    )}
      RETURNING id, account_id, balance_after)`,
    // Every create that records a generation writes its account row: record-at-once.ts relies on it.
    Prisma.sql`balance AS (
      UPDATE account SET credit_balance = entry.balance_after, updated_at = ${input.createdAt} FROM entry WHERE account.id = entry.account_id)`,
    // formatCredits' numbers are the amounts without trailing zeros, as trim_scale gives them.
    Prisma.sql`activity AS (${activityEventInsert(
      {
        id: Prisma.sql`${input.activityId}::uuid`,
        accountId: Prisma.sql`entry.account_id`,
        actor: Prisma.sql`'system'`,
        category: Prisma.sql`'credit'::"ActivityCategory"`,
        action: Prisma.sql`'credit.reserved'`,
        description: Prisma.sql`${`${amount} credits reserved for ${input.modelIdentifier} generation ${input.generationId}`}::text`,
        metadata: Prisma.sql`jsonb_build_object('ledger_entry_id', ${input.entryId}::uuid, 'amount', trim_scale(${amount}::numeric), 'balance_after', trim_scale(entry.balance_after),
                                'generation_id', ${input.generationId}::uuid, 'model_identifier', ${input.modelIdentifier}::text)`,
        createdAt: Prisma.sql`${input.createdAt}::timestamptz`,
      },
      Prisma.sql`FROM entry`,
    )})`,
    ...(spend ? [spend] : []),
  ];
}

import { Prisma } from "../base/generated/prisma/client";
import { ledgerEntryInsert } from "../ledger/ledger-entry-insert";
import { activityEventInsert } from "../activity/record-activity";

// The rows chargeCredits (server/credits/charge-credits.ts) writes for a generation's open
// reservation, as WITH items of a caller's autocommit statement that read the reservation from a
// row it locked (server/generations/run/settle-success.ts): the `charge` ledger entry, for the
// reserved amount with the balance left as it is, and its `credit.charged` activity event. The
// same text, amounts and metadata as the transaction's path: a charge moves no balance, so it
// crosses no low-balance threshold and changes no spend counter (server/spend says why).

/**
 * `source`: a WITH item of the statement with one row when the charge is due (none: nothing is
 * written), with the columns of the finish's locking read (server/generations/run/locking-read.ts):
 * `id` (the generation), `account_id`, `reserved_amount`, `reserved_model` and `balance` (the
 * account's, read under its row lock; amounts as decimal text).
 */
export function chargeItems(source: string, ids: { entryId: string; activityId: string; createdAt: Date }): Prisma.Sql[] {
  const from = Prisma.raw(source);
  return [
    Prisma.sql`entry AS (${ledgerEntryInsert(
      {
        id: Prisma.sql`${ids.entryId}::uuid`,
        accountId: Prisma.sql`s.account_id`,
        type: Prisma.sql`'charge'::"LedgerEntryType"`,
        amount: Prisma.sql`s.reserved_amount::numeric`,
        balanceAfter: Prisma.sql`s.balance::numeric`,
        generationId: Prisma.sql`s.id`,
        modelIdentifier: Prisma.sql`s.reserved_model`,
        description: Prisma.sql`'Charge for generation ' || s.id`,
        sourceKey: Prisma.sql`NULL::text`,
        createdAt: Prisma.sql`${ids.createdAt}::timestamptz`,
      },
      Prisma.sql`FROM ${from} s`,
    )}
      RETURNING id)`,
    // formatCredits' numbers are the amounts without trailing zeros (0.003, 1.5, 2), as trim_scale gives them.
    Prisma.sql`charge_activity AS (${activityEventInsert(
      {
        id: Prisma.sql`${ids.activityId}::uuid`,
        accountId: Prisma.sql`s.account_id`,
        actor: Prisma.sql`'system'`,
        category: Prisma.sql`'credit'::"ActivityCategory"`,
        action: Prisma.sql`'credit.charged'`,
        description: Prisma.sql`s.reserved_amount::text || ' credits charged for generation ' || s.id`,
        metadata: Prisma.sql`jsonb_build_object('ledger_entry_id', ${ids.entryId}::uuid, 'amount', trim_scale(s.reserved_amount::numeric), 'balance_after', trim_scale(s.balance::numeric),
                                'generation_id', s.id, 'model_identifier', s.reserved_model)`,
        createdAt: Prisma.sql`${ids.createdAt}::timestamptz`,
      },
      Prisma.sql`FROM ${from} s JOIN entry ON true`,
    )})`,
  ];
}

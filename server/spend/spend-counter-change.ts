import { Prisma } from "../base/generated/prisma/client";
import type { LedgerEntryType } from "../base/generated/prisma/enums";
import { millisToDecimalString, type Millicredits } from "../base/money";

// The daily spend counters move with the ledger, in the same statement: a reserve adds its amount
// to the generation's creation day, for the account and for the key's budget; a refund takes it
// back from that same day (whenever the refund happens); a charge confirms a reservation and
// changes nothing. So spend in a period = charged + still reserved for generations created in it.

export type SpendCounterMovement = { type: LedgerEntryType; generationId?: string; amountMillis: Millicredits };

/**
 * A data-modifying WITH item (`spend_counted`) for the movement's ledger statement, or null.
 * `generationFrom`: the WITH item of the same statement that inserts the generation (its row is not
 * in the table for the statement's other items), returning its id, account_id, api_key_id,
 * spend_budget_id and created_at.
 */
export function spendCounterChange(input: SpendCounterMovement, options: { generationFrom?: string } = {}): Prisma.Sql | null {
  if (!input.generationId || input.amountMillis === 0 || (input.type !== "reserve" && input.type !== "refund")) return null;
  const delta = input.type === "reserve" ? input.amountMillis : -input.amountMillis;
  const generations = Prisma.raw(options.generationFrom ?? "generation");
  return Prisma.sql`
    spend_counted AS (
      INSERT INTO spend_counter (budget_id, day, account_id, used)
      SELECT budget.id, (g.created_at AT TIME ZONE 'UTC')::date, g.account_id, ${millisToDecimalString(delta)}::numeric
        FROM ${generations} g
        LEFT JOIN api_key k ON k.id = g.api_key_id
        CROSS JOIN LATERAL (VALUES (g.account_id), (coalesce(g.spend_budget_id, k.spend_budget_id, k.id))) AS budget(id)
       WHERE g.id = ${input.generationId}::uuid AND budget.id IS NOT NULL
      ON CONFLICT (budget_id, day) DO UPDATE SET used = spend_counter.used + EXCLUDED.used)`;
}

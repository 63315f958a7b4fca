import { decimalToMillis, millisToDecimalString, type Millicredits } from "../base/money";
import type { Tx } from "../base/db";
import { Prisma } from "../base/generated/prisma/client";
import { recordLowBalanceAlert, type FiredAlert } from "./record-low-balance-alert";

// Low-balance rules, run inside every movement's transaction, after the account row is locked,
// so movements and threshold edits on one account are evaluated one at a time (20 concurrent
// reserves crossing a threshold fire exactly one alert).
// - A drop fires every armed threshold the balance is now below, and disarms it: a threshold
//   fires once while the balance stays below it. Several crossed in one movement: one alert.
// - A rise (only `add` and `refund` raise the balance) re-arms every fired threshold the balance
//   is now at or above. At, not only above: a balance equal to the threshold is not below it, so
//   the next drop under it is a new crossing. `charge` moves no balance and changes nothing.
// - A rise never fires, even when the balance stays below an armed threshold: nothing fell.
// A movement runs the rules in its own statement (thresholdChanges, passed to the ledger by
// server/credits/move-balance.ts: one round trip a movement).

export type EvaluateThresholdsInput = {
  accountId: string;
  balanceBeforeMillis: Millicredits;
  balanceAfterMillis: Millicredits;
  /** For the alert's record. */
  ledgerEntryId?: string;
};

/**
 * The rules as two data-modifying WITH items for a movement's statement: `fired` (the thresholds
 * the drop crossed, disarmed, RETURNING amount as text) and `rearmed`. A movement that does not
 * move the balance changes nothing.
 */
export function thresholdChanges(
  input: Omit<EvaluateThresholdsInput, "ledgerEntryId">,
  now: Date,
  options: { onlyIfEntry?: boolean } = {},
): Prisma.Sql {
  const { accountId, balanceBeforeMillis: before, balanceAfterMillis: after } = input;
  const balance = millisToDecimalString(after);
  // A movement whose entry may not be written (server/ledger/append-ledger-entry.ts, `first`).
  const written = options.onlyIfEntry ? Prisma.sql`AND EXISTS (SELECT 1 FROM entry)` : Prisma.empty;
  return Prisma.sql`
    fired AS (
      UPDATE alert_threshold SET armed = false, last_fired_at = ${now}
       WHERE account_id = ${accountId}::uuid AND armed AND amount > ${balance}::numeric AND ${after < before} ${written}
      RETURNING amount::text AS amount),
    rearmed AS (
      UPDATE alert_threshold SET armed = true
       WHERE account_id = ${accountId}::uuid AND NOT armed AND amount <= ${balance}::numeric AND ${after > before} ${written})`;
}

/** What a movement's statement returned from `fired`: the alert written in this transaction, or null. */
export async function recordFiredThresholds(
  tx: Tx,
  input: EvaluateThresholdsInput,
  fired: Array<{ amount: string }>,
): Promise<FiredAlert | null> {
  if (fired.length === 0) return null;
  return recordLowBalanceAlert(tx, {
    accountId: input.accountId,
    balanceBeforeMillis: input.balanceBeforeMillis,
    balanceAfterMillis: input.balanceAfterMillis,
    thresholdsCrossed: fired.map((row) => ({ thresholdMillis: decimalToMillis(row.amount), balanceAtMillis: input.balanceAfterMillis })),
    ledgerEntryId: input.ledgerEntryId,
  });
}

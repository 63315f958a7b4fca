import { decimalToMillis, millisToDecimalString, type Millicredits } from "../credits/money";
import type { Tx } from "../db";
import { recordLowBalanceAlert, type FiredAlert } from "./record-low-balance-alert";

// Low-balance rules, run by appendLedgerEntry inside every movement's transaction,
// after the account row is locked, so movements and threshold edits on one account are evaluated
// one at a time (20 concurrent reserves crossing a threshold fire exactly one alert).
// - A drop fires every armed threshold the balance is now below, and disarms it: a threshold
//   fires once while the balance stays below it. Several crossed in one movement: one alert.
// - A rise (only `add` and `refund` raise the balance) re-arms every fired threshold the balance
//   is now at or above. At, not only above: a balance equal to the threshold is not below it, so
//   the next drop under it is a new crossing. `charge` moves no balance and changes nothing.
// - A rise never fires, even when the balance stays below an armed threshold: nothing fell.

export type EvaluateThresholdsInput = {
  accountId: string;
  balanceBeforeMillis: Millicredits;
  balanceAfterMillis: Millicredits;
  /** For the alert's record. */
  ledgerEntryId?: string;
};

/** The alert written in this transaction, or null when nothing fired. */
export async function evaluateThresholds(tx: Tx, input: EvaluateThresholdsInput): Promise<FiredAlert | null> {
  const { accountId, balanceBeforeMillis: before, balanceAfterMillis: after } = input;
  const balanceText = millisToDecimalString(after);

  if (after > before) {
    await tx.alertThreshold.updateMany({ where: { accountId, armed: false, amount: { lte: balanceText } }, data: { armed: true } });
    return null;
  }
  if (after === before) return null;

  const fired = await tx.alertThreshold.updateManyAndReturn({
    where: { accountId, armed: true, amount: { gt: balanceText } },
    data: { armed: false, lastFiredAt: new Date() },
    select: { amount: true },
  });
  if (fired.length === 0) return null;
  return recordLowBalanceAlert(tx, {
    accountId,
    balanceBeforeMillis: before,
    balanceAfterMillis: after,
    thresholdsCrossed: fired.map((row) => ({ thresholdMillis: decimalToMillis(row.amount), balanceAtMillis: after })),
    ledgerEntryId: input.ledgerEntryId,
  });
}

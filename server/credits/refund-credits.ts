import "server-only";
import type { Tx } from "../base/db";
import type { SettleCreditsInput, SettleCreditsResult } from "./charge-credits";
import { moveBalance } from "./move-balance";
import { findReservation } from "../ledger/find-reservation";
import { MAX_BALANCE_MILLIS, millisToDecimalString } from "../base/money";

// A `refund` entry when a reserved generation fails or is canceled before being charged: the
// reserved amount goes back to the balance. A repeated refund, or a refund after a charge, is a
// no-op with a reason (and a partial unique index refuses it at the database too).

export type { SettleCreditsInput, SettleCreditsResult } from "./charge-credits";

export async function refundCredits(tx: Tx, input: SettleCreditsInput): Promise<SettleCreditsResult> {
  const { accountId, generationId } = input;
  const reservation = await findReservation(tx, accountId, generationId);
  if (reservation.state === "not_reserved")
    return { applied: false, reason: "not_reserved", amountMillis: 0, balanceMillis: reservation.balanceMillis };
  const { amountMillis, balanceMillis } = reservation;
  if (reservation.state !== "open")
    return {
      applied: false,
      reason: reservation.state === "refunded" ? "already_refunded" : "already_charged",
      amountMillis,
      balanceMillis,
    };

  const balanceAfter = balanceMillis + amountMillis;
  // Cannot happen while reserves only take from this balance; refuse rather than overflow.
  if (balanceAfter > MAX_BALANCE_MILLIS) throw new Error(`refund would overflow the balance of account ${accountId}`);
  const entryId = await moveBalance(tx, {
    accountId,
    type: "refund",
    amountMillis,
    balanceBeforeMillis: balanceMillis,
    balanceAfterMillis: balanceAfter,
    generationId,
    modelIdentifier: reservation.modelIdentifier,
    description: input.description ?? `Refund for generation ${generationId}`,
    actor: input.actor,
    activity: {
      action: "credit.refunded",
      description: `${millisToDecimalString(amountMillis)} credits refunded for generation ${generationId}`,
    },
  });
  return { applied: true, amountMillis, balanceMillis: balanceAfter, entryId };
}

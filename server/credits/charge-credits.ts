import "server-only";
import type { ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { Prisma } from "../base/generated/prisma/client";
import { executeInTransaction } from "../base/transaction-sql";
import { moveBalance } from "./move-balance";
import { findReservation, type Reservation } from "../ledger/find-reservation";
import { millisToDecimalString, type Millicredits } from "../base/money";

// A `charge` entry when a reserved generation succeeds: it confirms the reservation for the
// reserved amount and leaves the balance as it is. A repeated charge, or a charge after a refund,
// is a no-op with a reason (and a partial unique index refuses it at the database too).

export type SettleCreditsInput = {
  accountId: string;
  generationId: string;
  description?: string;
  actor?: ActivityActor;
};

export type ChargeCreditsInput = SettleCreditsInput & {
  /**
   * The caller's own writes, as named WITH items (names other than the ledger statement's own: `entry`,
   * `balance`, `activity`, `fired`, `rearmed`, `spend_counted`): sent in the charge's statement, one round trip
   * fewer per finished generation, and run alone when no charge is due.
   */
  alongside?: Prisma.Sql[];
  /**
   * The reservation and the balance, read by the caller in the statement that took the account's
   * row lock (server/generations/run/finish-generation.ts says why that read sees every
   * settlement): the charge reads nothing itself.
   */
  reservation?: Reservation;
};

export type SettleCreditsResult = {
  applied: boolean;
  reason?: "not_reserved" | "already_charged" | "already_refunded";
  /** The reserved amount (0 when nothing was reserved). */
  amountMillis: Millicredits;
  balanceMillis: Millicredits;
  entryId?: string;
};

export async function chargeCredits(tx: Tx, input: ChargeCreditsInput): Promise<SettleCreditsResult> {
  const { accountId, generationId, alongside = [] } = input;
  const reservation = input.reservation ?? (await findReservation(tx, accountId, generationId));
  if (reservation.state !== "open" && alongside.length > 0)
    await executeInTransaction(tx, Prisma.sql`WITH ${Prisma.join(alongside, ", ")} SELECT 1`);
  if (reservation.state === "not_reserved")
    return { applied: false, reason: "not_reserved", amountMillis: 0, balanceMillis: reservation.balanceMillis };
  const { amountMillis, balanceMillis } = reservation;
  if (reservation.state !== "open")
    return {
      applied: false,
      reason: reservation.state === "charged" ? "already_charged" : "already_refunded",
      amountMillis,
      balanceMillis,
    };

  const entryId = await moveBalance(tx, {
    accountId,
    type: "charge",
    amountMillis,
    balanceBeforeMillis: balanceMillis,
    balanceAfterMillis: balanceMillis,
    generationId,
    modelIdentifier: reservation.modelIdentifier,
    description: input.description ?? `Charge for generation ${generationId}`,
    actor: input.actor,
    activity: {
      action: "credit.charged",
      description: `${millisToDecimalString(amountMillis)} credits charged for generation ${generationId}`,
    },
    alongside,
  });
  return { applied: true, amountMillis, balanceMillis, entryId };
}

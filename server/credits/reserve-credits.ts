import "server-only";
import type { ActivityActor } from "../activity/record-activity";
import { moveBalance, moveBalanceAfter, type BalanceMovement, type FirstItems } from "./move-balance";
import type { Tx } from "../base/db";
import { formatCredits, millisToDecimalString, type Millicredits } from "../base/money";
import { ApiError, invalidRequest } from "../base/error-table";
import { getBalance } from "../ledger/get-balance";
import { isGuid } from "../base/guid";

// A `reserve` entry when a generation starts: the estimated cost leaves the balance now
// and is later either confirmed by a charge or given back by a refund. A short balance is ERR1004
// and writes nothing; the balance never goes negative.

export type ReserveCreditsInput = {
  accountId: string;
  generationId: string;
  amountMillis: Millicredits;
  modelIdentifier: string;
  description: string;
  actor?: ActivityActor;
  /** The balance the caller read while taking the account row lock in this transaction. */
  lockedBalanceMillis?: Millicredits;
  /**
   * The generation row was inserted in this transaction (a create): no reservation can exist for
   * it yet, so none is looked for (the unique index on reserve entries would refuse a second anyway).
   */
  newGeneration?: boolean;
  /**
   * The generation's insert, in the reservation's statement (a create whose locked balance covers
   * the cost: one round trip fewer). The reservation is written only when the insert returns its
   * row; when it does not (the concurrency cap refused), nothing is, and the result says
   * `not_recorded`. Implies newGeneration.
   */
  recordedBy?: FirstItems;
};

export type ReserveCreditsResult = {
  applied: boolean;
  reason?: "already_reserved" | "not_recorded";
  amountMillis: Millicredits;
  balanceMillis: Millicredits;
  entryId?: string;
  /** With `recordedBy`: the values of its `columns`. */
  columns?: Record<string, unknown>;
};

export async function reserveCredits(tx: Tx, input: ReserveCreditsInput): Promise<ReserveCreditsResult> {
  const { accountId, generationId, amountMillis, modelIdentifier, description } = input;
  if (!Number.isSafeInteger(amountMillis) || amountMillis < 0) {
    throw invalidRequest("The amount must be a non-negative number of millicredits.", [
      { field: "amount", message: "must not be negative" },
    ]);
  }
  if (!isGuid(generationId)) {
    throw invalidRequest("The generation id must be a UUID.", [{ field: "generation_id", message: "must be a UUID" }]);
  }

  const balance = input.lockedBalanceMillis ?? (await getBalance(tx, accountId, { lock: true }));
  const existing =
    input.newGeneration || input.recordedBy
      ? null
      : await tx.ledgerEntry.findFirst({ where: { type: "reserve", generationId }, select: { id: true, accountId: true } });
  if (existing) {
    if (existing.accountId !== accountId) throw new Error(`generation ${generationId} is already reserved by another account`);
    return { applied: false, reason: "already_reserved", amountMillis, balanceMillis: balance };
  }
  if (balance < amountMillis) {
    throw new ApiError(
      "ERR1004",
      `The balance of ${millisToDecimalString(balance)} credits is too low for the estimated cost of ${millisToDecimalString(amountMillis)}.`,
      {
        required: formatCredits(amountMillis),
        balance: formatCredits(balance),
      },
    );
  }

  const balanceAfter = balance - amountMillis;
  const movement: BalanceMovement = {
    accountId,
    type: "reserve",
    amountMillis,
    balanceBeforeMillis: balance,
    balanceAfterMillis: balanceAfter,
    generationId,
    modelIdentifier,
    description,
    actor: input.actor,
    activity: {
      action: "credit.reserved",
      description: `${millisToDecimalString(amountMillis)} credits reserved for ${modelIdentifier} generation ${generationId}`,
    },
  };
  if (input.recordedBy) {
    const moved = await moveBalanceAfter(tx, movement, input.recordedBy);
    if (moved === null) return { applied: false, reason: "not_recorded", amountMillis, balanceMillis: balance };
    return { applied: true, amountMillis, balanceMillis: balanceAfter, entryId: moved.entryId, columns: moved.columns };
  }
  const entryId = await moveBalance(tx, movement);
  return { applied: true, amountMillis, balanceMillis: balanceAfter, entryId };
}

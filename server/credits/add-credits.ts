import type { ActivityActor } from "../activity/record-activity";
import { moveBalance } from "./move-balance";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { getBalance } from "../ledger/get-balance";
import { MAX_BALANCE_MILLIS, millisToDecimalString, type Millicredits } from "../base/money";

// An `add` entry: renewal, welcome credit, credit pack, operator grant. Idempotent per source
// ("invoice:<id>", "checkout:<id>", "welcome:<user>", "operator:<uuid>"): the second call for a
// source changes nothing, whichever account it names; a partial unique index backs this up, and
// ledger_purged_source remembers the sources of entries retention deleted.

export type AddCreditsInput = {
  accountId: string;
  amountMillis: Millicredits;
  sourceKey: string;
  description: string;
  actor?: ActivityActor;
};

export type AddCreditsResult = {
  applied: boolean;
  reason?: "duplicate_source";
  balanceMillis: Millicredits;
  entryId?: string;
};

export async function addCredits(tx: Tx, input: AddCreditsInput): Promise<AddCreditsResult> {
  const { accountId, amountMillis, sourceKey, description } = input;
  if (!Number.isSafeInteger(amountMillis) || amountMillis <= 0) {
    throw invalidRequest("The amount must be a positive number of millicredits.", [{ field: "amount", message: "must be positive" }]);
  }
  if (sourceKey.trim() === "")
    throw invalidRequest("A credit addition needs a source key.", [{ field: "source_key", message: "required" }]);

  const balance = await getBalance(tx, accountId, { lock: true });
  // Retention may have deleted the entry; its source key stays in ledger_purged_source.
  const existing =
    (await tx.ledgerEntry.findFirst({ where: { type: "add", sourceKey }, select: { id: true } })) ??
    (await tx.ledgerPurgedSource.findUnique({ where: { sourceKey }, select: { sourceKey: true } }));
  if (existing) return { applied: false, reason: "duplicate_source", balanceMillis: balance };

  const balanceAfter = balance + amountMillis;
  if (balanceAfter > MAX_BALANCE_MILLIS) {
    throw invalidRequest("The balance would exceed the largest amount an account can hold.", [{ field: "amount", message: "too large" }]);
  }
  const entryId = await moveBalance(tx, {
    accountId,
    type: "add",
    amountMillis,
    balanceBeforeMillis: balance,
    balanceAfterMillis: balanceAfter,
    description,
    sourceKey,
    actor: input.actor,
    activity: { action: "credit.added", description: `${millisToDecimalString(amountMillis)} credits added: ${description}` },
  });
  return { applied: true, balanceMillis: balanceAfter, entryId };
}

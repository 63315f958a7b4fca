import { randomUUID } from "node:crypto";
import { activityInsert, type ActivityActor } from "../activity/record-activity";
import { recordFiredThresholds, thresholdChanges } from "../alerts/evaluate-thresholds";
import type { Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { appendLedgerEntry, type LedgerEntryInput } from "../ledger/append-ledger-entry";
import { formatCredits } from "../money";
import { spendCounterChange } from "../spend/spend-counter-change";

// A credit movement (reserve, charge, refund, add): its ledger entry and balance, its `credit.*`
// activity event, the low-balance thresholds it crosses (fired or re-armed) and the spend counters
// of a reserve or refund (server/spend), in one statement of the caller's transaction; then the records of an alert it fired, in the same transaction
// (server/alerts/evaluate-thresholds.ts has the thresholds' rules).

export type BalanceMovement = Omit<LedgerEntryInput, "entryId" | "createdAt"> & {
  actor?: ActivityActor;
  activity: { action: string; description: string };
  /** The caller's own WITH items, in the same statement (server/credits/charge-credits.ts). */
  alongside?: Prisma.Sql[];
};

export async function moveBalance(tx: Tx, input: BalanceMovement): Promise<string> {
  const entryId = randomUUID();
  const createdAt = new Date();
  const metadata = {
    ledger_entry_id: entryId,
    amount: formatCredits(input.amountMillis),
    balance_after: formatCredits(input.balanceAfterMillis),
    ...(input.generationId ? { generation_id: input.generationId, model_identifier: input.modelIdentifier ?? null } : {}),
    ...(input.sourceKey ? { source_key: input.sourceKey } : {}),
  };
  const activity = activityInsert(
    { accountId: input.accountId, actor: input.actor ?? "system", category: "credit", action: input.activity.action, description: input.activity.description, metadata },
    { id: randomUUID(), createdAt, onlyIfRowIn: "entry" },
  );
  const thresholds = { accountId: input.accountId, balanceBeforeMillis: input.balanceBeforeMillis, balanceAfterMillis: input.balanceAfterMillis };
  const spend = spendCounterChange(input);
  const fired = await appendLedgerEntry<{ amount: string }>(
    tx,
    { ...input, entryId, createdAt },
    { with: [Prisma.sql`activity AS (${activity})`, thresholdChanges(thresholds, createdAt), ...(spend ? [spend] : []), ...(input.alongside ?? [])], select: Prisma.sql`SELECT amount FROM fired` },
  );
  // A drop below armed thresholds: the alert's records, in the same transaction as the movement.
  await recordFiredThresholds(tx, { ...thresholds, ledgerEntryId: entryId }, fired);
  return entryId;
}

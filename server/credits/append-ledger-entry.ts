import { recordActivity, type ActivityActor } from "../activity/record-activity";
import { evaluateThresholds } from "../alerts/evaluate-thresholds";
import type { Tx } from "../db";
import type { LedgerEntryType } from "../generated/prisma/enums";
import { formatCredits, millisToDecimalString, type Millicredits } from "./money";

// The one place a ledger row is written: the entry, the account's balance (when it moves), the
// activity event and the low-balance thresholds, all in the caller's transaction, after the caller
// locked the account row.

type AppendInput = {
  accountId: string;
  type: LedgerEntryType;
  amountMillis: Millicredits;
  balanceBeforeMillis: Millicredits;
  balanceAfterMillis: Millicredits;
  description: string;
  generationId?: string;
  modelIdentifier?: string | null;
  sourceKey?: string;
  actor?: ActivityActor;
  activity: { action: string; description: string };
};

export async function appendLedgerEntry(tx: Tx, input: AppendInput): Promise<string> {
  const entry = await tx.ledgerEntry.create({
    data: {
      accountId: input.accountId,
      type: input.type,
      amount: millisToDecimalString(input.amountMillis),
      balanceAfter: millisToDecimalString(input.balanceAfterMillis),
      generationId: input.generationId,
      modelIdentifier: input.modelIdentifier ?? null,
      description: input.description,
      sourceKey: input.sourceKey,
    },
    select: { id: true },
  });
  if (input.balanceAfterMillis !== input.balanceBeforeMillis) {
    await tx.account.update({ where: { id: input.accountId }, data: { creditBalance: millisToDecimalString(input.balanceAfterMillis) }, select: { id: true } });
  }
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor ?? "system",
    category: "credit",
    action: input.activity.action,
    description: input.activity.description,
    metadata: {
      ledger_entry_id: entry.id,
      amount: formatCredits(input.amountMillis),
      balance_after: formatCredits(input.balanceAfterMillis),
      ...(input.generationId ? { generation_id: input.generationId, model_identifier: input.modelIdentifier ?? null } : {}),
      ...(input.sourceKey ? { source_key: input.sourceKey } : {}),
    },
  });
  // Low-balance alerts fire and re-arm in the same transaction as the movement.
  if (input.balanceAfterMillis !== input.balanceBeforeMillis) {
    await evaluateThresholds(tx, { accountId: input.accountId, balanceBeforeMillis: input.balanceBeforeMillis, balanceAfterMillis: input.balanceAfterMillis, ledgerEntryId: entry.id });
  }
  return entry.id;
}

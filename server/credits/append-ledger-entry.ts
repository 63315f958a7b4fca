import { randomUUID } from "node:crypto";
import type { ActivityActor } from "../activity/record-activity";
import { recordFiredThresholds, thresholdChanges } from "../alerts/evaluate-thresholds";
import type { Tx } from "../db";
import type { LedgerEntryType } from "../generated/prisma/enums";
import { formatCredits, millisToDecimalString, type Millicredits } from "./money";

// The one place a ledger row is written: the entry, the account's balance (when it moves), the
// activity event and the low-balance thresholds, all in the caller's transaction, after the caller
// locked the account row (server/alerts/evaluate-thresholds.ts has the thresholds' rules).

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
  const entryId = randomUUID();
  const balanceAfter = millisToDecimalString(input.balanceAfterMillis);
  const moves = input.balanceAfterMillis !== input.balanceBeforeMillis;
  const metadata = {
    ledger_entry_id: entryId,
    amount: formatCredits(input.amountMillis),
    balance_after: formatCredits(input.balanceAfterMillis),
    ...(input.generationId ? { generation_id: input.generationId, model_identifier: input.modelIdentifier ?? null } : {}),
    ...(input.sourceKey ? { source_key: input.sourceKey } : {}),
  };
  const now = new Date();
  const thresholds = { accountId: input.accountId, balanceBeforeMillis: input.balanceBeforeMillis, balanceAfterMillis: input.balanceAfterMillis };
  // One statement, one round trip (every create and every finished generation moves credits):
  // the entry, the balance when it moves, the activity event (recordActivity's row), and the
  // low-balance thresholds the move crosses (fired or re-armed in the same statement).
  const fired = await tx.$queryRaw<Array<{ amount: string }>>`
    WITH entry AS (
      INSERT INTO ledger_entry (id, account_id, type, amount, balance_after, generation_id, model_identifier, description, source_key, created_at)
      VALUES (${entryId}::uuid, ${input.accountId}::uuid, ${input.type}::"LedgerEntryType", ${millisToDecimalString(input.amountMillis)}::numeric, ${balanceAfter}::numeric,
              ${input.generationId ?? null}::uuid, ${input.modelIdentifier ?? null}, ${input.description}, ${input.sourceKey ?? null}, ${now})
      RETURNING id
    ), balance AS (
      UPDATE account SET credit_balance = ${balanceAfter}::numeric, updated_at = ${now} WHERE id = ${input.accountId}::uuid AND ${moves}
    ), activity AS (
      INSERT INTO activity_event (id, account_id, actor, category, action, description, metadata, created_at)
      SELECT ${randomUUID()}::uuid, ${input.accountId}::uuid, ${input.actor ?? "system"}, 'credit'::"ActivityCategory", ${input.activity.action}, ${input.activity.description},
             ${JSON.stringify(metadata)}::jsonb, ${now}
        FROM entry
    ), ${thresholdChanges(thresholds, now)}
    SELECT amount FROM fired`;
  // A drop below armed thresholds: the alert's records, in the same transaction as the movement.
  await recordFiredThresholds(tx, { ...thresholds, ledgerEntryId: entryId }, fired);
  return entryId;
}

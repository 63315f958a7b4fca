import { randomUUID } from "node:crypto";
import { activityInsert, type ActivityActor } from "../activity/record-activity";
import { recordFiredThresholds, thresholdChanges } from "../alerts/evaluate-thresholds";
import type { Tx } from "../base/db";
import { Prisma } from "../base/generated/prisma/client";
import { appendLedgerEntry, type LedgerEntryInput } from "../ledger/append-ledger-entry";
import { formatCredits } from "../base/money";
import { spendCounterChange } from "../spend/spend-counter-change";
import { requestTopUpAfterCommit, topUpTrigger } from "./top-up-trigger";

// A credit movement (reserve, charge, refund, add): its ledger entry and balance, its `credit.*`
// activity event, the low-balance thresholds it crosses (fired or re-armed), the auto top-up order
// a drop below its threshold starts (server/billing/auto-top-up/trigger.ts) and the spend counters
// of a reserve or refund (server/spend), in one statement of the caller's transaction; then the records of an alert it fired, in the same transaction
// (server/alerts/evaluate-thresholds.ts has the thresholds' rules).

export type BalanceMovement = Omit<LedgerEntryInput, "entryId" | "createdAt"> & {
  actor?: ActivityActor;
  activity: { action: string; description: string };
  /** The caller's own WITH items, in the same statement (server/credits/charge-credits.ts). */
  alongside?: Prisma.Sql[];
};

/**
 * WITH items the movement follows in its statement, the one whose row it needs (a generation
 * insert), and select-list entries of the caller's read back with it (`columns`).
 */
export type FirstItems = { items: Prisma.Sql[]; onlyAfter: string; columns?: Prisma.Sql[] };

export async function moveBalance(tx: Tx, input: BalanceMovement): Promise<string> {
  return (await movement(tx, input, null))?.entryId as string;
}

/**
 * A movement for a generation inserted in the same statement by `first.onlyAfter` (a create:
 * server/generations/reserve-and-record.ts), which returns the generation's id, account_id,
 * api_key_id, spend_budget_id and created_at. Nothing is written when that insert returns no row
 * (its concurrency cap refused): then null.
 */
export async function moveBalanceAfter(tx: Tx, input: BalanceMovement, first: FirstItems): Promise<Moved | null> {
  return movement(tx, input, first);
}

/** The entry written, and the values of the caller's `columns`. */
export type Moved = { entryId: string; columns: Record<string, unknown> };

async function movement(tx: Tx, input: BalanceMovement, first: FirstItems | null): Promise<Moved | null> {
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
    {
      accountId: input.accountId,
      actor: input.actor ?? "system",
      category: "credit",
      action: input.activity.action,
      description: input.activity.description,
      metadata,
    },
    { id: randomUUID(), createdAt, onlyIfRowIn: "entry" },
  );
  const thresholds = {
    accountId: input.accountId,
    balanceBeforeMillis: input.balanceBeforeMillis,
    balanceAfterMillis: input.balanceAfterMillis,
  };
  const spend = spendCounterChange(input, { generationFrom: first?.onlyAfter });
  const items = [
    Prisma.sql`activity AS (${activity})`,
    thresholdChanges(thresholds, createdAt, { onlyIfEntry: first !== null }),
    topUpTrigger(thresholds, createdAt, { onlyIfEntry: first !== null }),
    ...(spend ? [spend] : []),
    ...(input.alongside ?? []),
  ];
  const topUp = Prisma.sql`(SELECT id FROM top_up) AS top_up_order`;
  if (!first) {
    // One row; one per fired threshold when some fired (amount null when none did).
    const rows = await appendLedgerEntry<{ amount: string | null; top_up_order: string | null }>(
      tx,
      { ...input, entryId, createdAt },
      { with: items, select: Prisma.sql`SELECT fired.amount, ${topUp} FROM (SELECT 1) one LEFT JOIN fired ON true` },
    );
    // A drop below armed thresholds: the alert's records, in the same transaction as the movement.
    await recordFiredThresholds(tx, { ...thresholds, ledgerEntryId: entryId }, firedOf(rows));
    requestTopUpAfterCommit(tx, rows[0]?.top_up_order ?? null);
    return { entryId, columns: {} };
  }
  // No row: nothing was written. Else one row per fired threshold (amount null when none fired).
  const columns = (first.columns ?? []).map((column) => Prisma.sql`, ${column}`);
  const rows = await appendLedgerEntry<{ amount: string | null; top_up_order: string | null } & Record<string, unknown>>(
    tx,
    { ...input, entryId, createdAt },
    {
      first,
      with: items,
      select: Prisma.sql`SELECT fired.amount, ${topUp}${columns.length > 0 ? Prisma.join(columns, "") : Prisma.empty} FROM entry LEFT JOIN fired ON true`,
    },
  );
  const [head] = rows;
  if (!head) return null;
  await recordFiredThresholds(tx, { ...thresholds, ledgerEntryId: entryId }, firedOf(rows));
  requestTopUpAfterCommit(tx, head.top_up_order);
  const { amount: _amount, top_up_order: _order, ...rest } = head;
  return { entryId, columns: rest };
}

const firedOf = (rows: Array<{ amount: string | null }>) => rows.flatMap((row) => (row.amount === null ? [] : [{ amount: row.amount }]));

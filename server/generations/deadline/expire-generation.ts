import "server-only";
import type { Tx } from "../../base/db";
import { Prisma } from "../../base/generated/prisma/client";
import { queryInTransaction } from "../../base/transaction-sql";
import { inTransaction } from "../../base/transaction";
import { sendProviderCancel, type CanceledGeneration } from "../cancel-generation";
import { cancelAtDeadline, type InFlightAtDeadline } from "./cancel-at-deadline";

// A generation's deadline is due: if it is still in flight and its deadline has passed, it is
// canceled at its deadline (cancel-at-deadline.ts), in one transaction under its row lock, and
// then its provider job is asked to stop (best effort). Anything else changes nothing, so the
// deadline's own run, the generation's run and the sweeper may all try: exactly one cancels.

type Locked = InFlightAtDeadline & { status: string; deadline_at: Date | null };

export type Expiry =
  | { outcome: "canceled"; canceled: CanceledGeneration }
  /** In flight, its deadline still ahead (a clock behind the one that set it): try again then. */
  | { outcome: "not_due"; deadlineAt: Date }
  /** Finished, canceled or without a deadline: nothing to do. */
  | { outcome: "none" };

export async function expireGeneration(tx: Tx, input: { generationId: string; now?: Date }): Promise<Expiry> {
  const now = input.now ?? new Date();
  const [row] = await queryInTransaction<Locked>(
    tx,
    Prisma.sql`
    SELECT id, account_id, status::text AS status, deadline_at, created_at, provider_used, prediction_id FROM generation WHERE id = ${input.generationId}::uuid FOR UPDATE`,
  );
  if (!row || (row.status !== "pending" && row.status !== "processing") || !row.deadline_at) return { outcome: "none" };
  if (row.deadline_at.getTime() > now.getTime()) return { outcome: "not_due", deadlineAt: row.deadline_at };
  return { outcome: "canceled", canceled: await cancelAtDeadline(tx, row, now) };
}

export type DeadlineResult =
  { outcome: "canceled"; providerCancelSent: boolean } | { outcome: "not_due"; deadlineAt: string } | { outcome: "none" };

/** The deadline's work, outside any transaction; the provider is told once the cancel committed. */
export async function expireAtDeadline(generationId: string): Promise<DeadlineResult> {
  const expiry = await inTransaction((tx) => expireGeneration(tx, { generationId }));
  if (expiry.outcome === "none") return expiry;
  if (expiry.outcome === "not_due") return { outcome: "not_due", deadlineAt: expiry.deadlineAt.toISOString() };
  return { outcome: "canceled", providerCancelSent: await sendProviderCancel(expiry.canceled) };
}

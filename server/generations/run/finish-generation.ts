import "server-only";
import { randomUUID } from "node:crypto";
import { activityInsert, recordActivity } from "../../activity/record-activity";
import { chargeCredits } from "../../credits/charge-credits";
import { refundCredits } from "../../credits/refund-credits";
import type { Tx } from "../../base/db";
import { inTransaction } from "../../base/transaction";
import { queryInTransaction } from "../../base/transaction-sql";
import { Prisma } from "../../base/generated/prisma/client";
import { getStorage } from "../../storage/get-storage";
import { decimalToMillis } from "../../base/money";
import { reservationOf } from "../../ledger/find-reservation";
import { queueGenerationFinished } from "../send-generation-finished";
import { cancelAtDeadline } from "../deadline/cancel-at-deadline";
import type { AttemptError } from "./attempt-outcome";
import { lockingRead, type LockedWithAttempt } from "./locking-read";
import { settleSuccessAtOnce } from "./settle-success";

// The terminal transitions of a run, each one transaction under the generation's row
// lock: succeeded + charge, or failed + refund, and the terminal webhook deliveries with them (the
// usual success, with no deliveries to queue, is one autocommit statement: settle-success.ts). A
// generation that already left the in-flight states (canceled meanwhile, or swept) is not
// touched: a late result is discarded, never charged. One whose Cancel-After deadline has passed
// is canceled at its deadline instead (ERR4006, refunded), whatever the run brought.

type Locked = {
  id: string;
  account_id: string;
  status: string;
  created_at: Date;
  deadline_at: Date | null;
  provider_used: string | null;
  prediction_id: string | null;
};

async function lockGeneration(tx: Tx, generationId: string): Promise<Locked | null> {
  const [row] = await tx.$queryRaw<Locked[]>`
    SELECT id, account_id, status, created_at, deadline_at, provider_used, prediction_id FROM generation WHERE id = ${generationId}::uuid FOR UPDATE`;
  return row && (row.status === "pending" || row.status === "processing") ? row : null;
}

const pastDeadline = (row: Locked, now: Date) => row.deadline_at !== null && row.deadline_at.getTime() <= now.getTime();

/** The finish's locking read (locking-read.ts says what it reads and why its snapshot is safe), in the transaction. */
async function lockWithAttempt(tx: Tx, generationId: string, attempt: number): Promise<LockedWithAttempt> {
  const [row] = await queryInTransaction<LockedWithAttempt>(tx, lockingRead(generationId, attempt));
  if (!row) throw new Error(`generation ${generationId} has no attempt ${attempt}`);
  return row;
}

type SuccessInput = {
  generationId: string;
  attempt: number;
  outputKeys: string[];
  predictTimeSeconds: number | null;
  predictionId?: string | null;
  providerCost?: string | null;
};

/** `predictionId`: the provider's job, recorded here when the submit that got the success did not record it. */
export async function finishSucceeded(input: SuccessInput) {
  const predictionId = input.predictionId ?? null;
  const now = new Date();
  // The usual success is one autocommit statement (settle-success.ts); every other case is decided in a transaction.
  const atOnce = await settleSuccessAtOnce({ ...input, predictionId, providerCost: input.providerCost ?? null, now });
  if (atOnce.settled) return { succeeded: true };
  return finishSucceededInTransaction(input, now);
}

/**
 * The whole decision in one transaction: the plain success (as settleSuccessAtOnce writes it), a
 * retried step's, a discard, a deadline, or a success whose endpoint takes generation.completed.
 */
export async function finishSucceededInTransaction(input: SuccessInput, now: Date) {
  const { generationId, attempt } = input;
  const predictionId = input.predictionId ?? null;
  const done = await inTransaction(async (tx) => {
    const row = await lockWithAttempt(tx, generationId, attempt);
    // Read under the lock: a deadline that passed while the lock was awaited has passed.
    const lockedAt = new Date();
    const latencyMs = now.getTime() - row.attempt_started_at.getTime();
    const inFlight = row.status === "pending" || row.status === "processing";
    // A retried step whose first try committed: the success and its webhooks stand.
    if (!inFlight && row.attempt_outcome === "succeeded") return true;
    if (!inFlight || pastDeadline(row, lockedAt)) {
      await tx.providerAttempt.update({
        where: { id: row.attempt_id },
        data: { outcome: "discarded", wasted: true, finishedAt: now, latencyMs, providerCost: input.providerCost ?? null },
      });
      // The result came after the deadline: discarded, and the generation canceled at it.
      if (inFlight) await cancelAtDeadline(tx, row, lockedAt);
      return false;
    }
    const activity = activityInsert(
      {
        accountId: row.account_id,
        actor: "system",
        category: "generation",
        action: "generation.succeeded",
        description: `Generation ${generationId} succeeded`,
        metadata: { generation_id: generationId, provider: row.provider },
      },
      { id: randomUUID(), createdAt: new Date() },
    );
    // The attempt, the generation and its activity event, sent in the charge's statement (one
    // round trip). The activity row's foreign key takes its share lock on an account this
    // transaction already holds (lockWithAttempt).
    const transition = [
      Prisma.sql`succeeded_attempt AS (
        UPDATE provider_attempt SET outcome = 'succeeded', finished_at = ${now}, latency_ms = ${latencyMs}::int, prediction_id = COALESCE(${predictionId}::text, prediction_id),
               provider_cost = ${input.providerCost ?? null}::numeric
         WHERE id = ${row.attempt_id}::uuid)`,
      Prisma.sql`succeeded_activity AS (${activity})`,
      Prisma.sql`succeeded_generation AS (
        UPDATE generation SET status = 'succeeded', output_keys = ${input.outputKeys}::text[], completed_at = ${now}, error_code = NULL, error_message = NULL,
               prediction_id = COALESCE(${predictionId}::text, prediction_id),
               metrics_total_time = ${(now.getTime() - row.created_at.getTime()) / 1000}::float8,
               metrics_predict_time = ${input.predictTimeSeconds ?? latencyMs / 1000}::float8, updated_at = ${now}
         WHERE id = ${generationId}::uuid)`,
    ];
    const reserve = row.reserved_amount === null ? null : { amount: row.reserved_amount, modelIdentifier: row.reserved_model };
    const reservation = reservationOf(decimalToMillis(row.balance), reserve, row.settled_by);
    await chargeCredits(tx, { accountId: row.account_id, generationId, alongside: transition, reservation });
    await queueGenerationFinished(tx, generationId, row.account_id, "succeeded", { subscribed: row.completed_subscribed });
    return true;
  });
  if (!done) {
    // Canceled while the provider worked: its files are not ours to keep.
    for (const key of input.outputKeys)
      await getStorage()
        .delete(key)
        .catch(() => false);
  }
  return { succeeded: done };
}

/** Every provider failed (ERR4004), or one refused the content (ERR4005, not retried elsewhere). */
export async function finishFailed(input: { generationId: string; errors: AttemptError[]; code?: "ERR4001" | "ERR5000" }) {
  const { generationId, errors } = input;
  const rejected = errors.find((error) => !error.failover);
  const code = input.code ?? (rejected ? rejected.code : "ERR4004");
  const message = rejected
    ? `${rejected.provider} rejected the request: ${rejected.message}`
    : errors.length
      ? `All providers failed: ${errors.map((error) => `${error.provider} ${error.code} (${error.message})`).join("; ")}`
      : "The generation could not run.";
  const failedNow = await inTransaction(async (tx) => {
    const locked = await lockGeneration(tx, generationId);
    // A retried step whose first try committed: the failure and its webhooks stand.
    if (!locked) return false;
    const now = new Date();
    if (pastDeadline(locked, now)) {
      await cancelAtDeadline(tx, locked, now);
      return false;
    }
    await tx.generation.update({
      where: { id: generationId },
      data: {
        status: "failed",
        completedAt: now,
        errorCode: code,
        errorMessage: message.slice(0, 2000),
        metricsTotalTime: (now.getTime() - locked.created_at.getTime()) / 1000,
      },
    });
    await tx.providerAttempt.updateMany({
      where: { generationId, outcome: "running" },
      data: { outcome: "failed", errorCode: code, finishedAt: now },
    });
    await refundCredits(tx, { accountId: locked.account_id, generationId, description: `Refund for failed generation ${generationId}` });
    await recordActivity(tx, {
      accountId: locked.account_id,
      actor: "system",
      category: "generation",
      action: "generation.failed",
      description: `Generation ${generationId} failed: ${code}`,
      metadata: { generation_id: generationId, error_code: code, provider_errors: errors },
    });
    await queueGenerationFinished(tx, generationId, locked.account_id, "failed");
    return true;
  });
  return { failed: failedNow };
}

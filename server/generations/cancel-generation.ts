import "server-only";
import { recordActivity } from "../activity/record-activity";
import { formatCredits } from "../base/money";
import { refundCredits } from "../credits/refund-credits";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { adapterFor } from "../providers/registry";
import { log } from "../base/log";
import { afterCommit } from "../base/transaction";
import { Prisma } from "../base/generated/prisma/client";
import { executeInTransaction, queryInTransaction } from "../base/transaction-sql";
import type { OneAccount } from "../base/account-scope";
import { findOwnGeneration } from "./records/own-generations";
import { queueGenerationFinished } from "./send-generation-finished";

// Canceling a generation: while pending or processing it becomes `canceled`, its running attempt
// too, and its reservation is refunded, in the caller's transaction, with its terminal webhook
// deliveries. The provider is then asked to stop (best effort). A provider result arriving later
// is discarded, never charged (finish-generation checks the status under the same row lock).

export type CanceledGeneration = {
  generationId: string;
  refunded: boolean;
  refundedMillis: number;
  provider: string | null;
  predictionId: string | null;
};

export type CancelInput = { generationId: string; actor?: string };

export type CancelOutcome = { done: CanceledGeneration } | { declined: "not_in_flight"; status: string | null };

type Locked = { status: string; provider_used: string | null; prediction_id: string | null };

/** The cancel transition, in the caller's transaction: the generation (the account's own) locked, and canceled when in flight. */
export async function cancelGeneration(tx: Tx, scope: OneAccount, { generationId, actor = "system" }: CancelInput): Promise<CancelOutcome> {
  const { accountId } = scope;
  await findOwnGeneration(tx, accountId, generationId);
  const [row] = await queryInTransaction<Locked>(
    tx,
    Prisma.sql`SELECT status::text AS status, provider_used, prediction_id FROM generation WHERE id = ${generationId}::uuid FOR UPDATE`,
  );
  if (!row || (row.status !== "pending" && row.status !== "processing")) return { declined: "not_in_flight", status: row?.status ?? null };
  const now = new Date();
  // The running attempt ends here, whatever the provider answers the cancel (MiniMax and BFL have no
  // cancel, so no result may ever come): the run only stops waiting for it. A result that still
  // arrives marks it discarded and wasted (run/settle-success.ts).
  await executeInTransaction(
    tx,
    Prisma.sql`
    WITH canceled_attempts AS (
      UPDATE provider_attempt SET outcome = 'canceled', finished_at = ${now}, latency_ms = round(extract(epoch FROM (${now}::timestamptz - started_at)) * 1000)::int
       WHERE generation_id = ${generationId}::uuid AND outcome = 'running')
    UPDATE generation SET status = 'canceled', completed_at = ${now}, metrics_total_time = EXTRACT(EPOCH FROM (${now}::timestamptz - created_at))::float8, updated_at = ${now}
     WHERE id = ${generationId}::uuid`,
  );
  const refund = await refundCredits(tx, { accountId, generationId, description: `Refund for canceled generation ${generationId}` });
  await recordActivity(tx, {
    accountId,
    actor,
    category: "generation",
    action: "generation.canceled",
    description: `Generation ${generationId} canceled`,
    metadata: { generation_id: generationId },
  });
  await queueGenerationFinished(tx, generationId, accountId, "canceled");
  return {
    done: {
      generationId,
      refunded: refund.applied,
      refundedMillis: refund.applied ? refund.amountMillis : 0,
      provider: row.provider_used,
      predictionId: row.prediction_id,
    },
  };
}

/** Best effort, after the cancel committed: true when the provider took the cancel request. */
export async function sendProviderCancel(canceled: CanceledGeneration): Promise<boolean> {
  if (!canceled.provider || !canceled.predictionId) return false;
  try {
    return await adapterFor(canceled.provider).cancel(canceled.predictionId);
  } catch (error) {
    log.warn("provider cancel failed", { generationId: canceled.generationId, provider: canceled.provider, error: String(error) });
    return false;
  }
}

/** The cancel route's answer. */
export function canceledResponse(canceled: CanceledGeneration, providerCancelSent: boolean) {
  return {
    generation_id: canceled.generationId,
    generation_status: "canceled" as const,
    provider_cancel_sent: providerCancelSent,
    credits_refunded: canceled.refunded,
    credits_refunded_amount: formatCredits(canceled.refundedMillis),
  };
}

/**
 * Cancel as a client asks for it (API route or dashboard), in the caller's transaction; once it
 * committed, the provider is told, and the answer says whether it took the request. The answer is
 * complete when the caller's inTransaction returns (its after-commit jobs have run by then).
 */
export async function requestCancel(tx: Tx, scope: OneAccount, input: CancelInput) {
  const outcome = await cancelGeneration(tx, scope, input);
  if ("declined" in outcome) {
    throw new ApiError("ERR1010", `The generation is ${outcome.status ?? "gone"} and can no longer be canceled.`, {
      generation_id: input.generationId,
      generation_status: outcome.status ?? undefined,
    });
  }
  const canceled = outcome.done;
  const answer = canceledResponse(canceled, false);
  afterCommit(tx, "provider cancel", async () => {
    answer.provider_cancel_sent = await sendProviderCancel(canceled);
  });
  return answer;
}

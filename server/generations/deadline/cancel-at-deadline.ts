import "server-only";
import { recordActivity } from "../../activity/record-activity";
import { refundCredits } from "../../credits/refund-credits";
import type { Tx } from "../../base/db";
import { Prisma } from "../../base/generated/prisma/client";
import { executeInTransaction } from "../../base/transaction-sql";
import type { CanceledGeneration } from "../cancel-generation";
import { queueGenerationFinished } from "../send-generation-finished";

// The one terminal transition of a generation whose Cancel-After passed: `canceled` with ERR4006,
// its reservation refunded in full (never charged), its running attempt canceled (a result that
// still arrives is discarded by finish-generation), and `generation.canceled` queued, all in the
// caller's transaction, which holds the generation's row lock and has seen it in flight. Whoever
// commits first wins: the run finishing, a client's cancel, or this.

export const DEADLINE_MESSAGE = "The generation did not finish before its Cancel-After deadline; it was canceled and refunded.";

export type InFlightAtDeadline = {
  id: string;
  account_id: string;
  created_at: Date;
  provider_used: string | null;
  prediction_id: string | null;
};

export async function cancelAtDeadline(tx: Tx, row: InFlightAtDeadline, now: Date): Promise<CanceledGeneration> {
  const generationId = row.id;
  await executeInTransaction(
    tx,
    Prisma.sql`
    WITH attempts AS (
      UPDATE provider_attempt SET outcome = 'canceled', finished_at = ${now}, latency_ms = floor(extract(epoch FROM (${now}::timestamptz - started_at)) * 1000)::int
       WHERE generation_id = ${generationId}::uuid AND outcome = 'running')
    UPDATE generation SET status = 'canceled', error_code = 'ERR4006', error_message = ${DEADLINE_MESSAGE}, completed_at = ${now},
           metrics_total_time = ${(now.getTime() - row.created_at.getTime()) / 1000}::float8, updated_at = ${now}
     WHERE id = ${generationId}::uuid`,
  );
  const refund = await refundCredits(tx, {
    accountId: row.account_id,
    generationId,
    description: `Refund for generation ${generationId} canceled at its deadline`,
  });
  await recordActivity(tx, {
    accountId: row.account_id,
    actor: "system",
    category: "generation",
    action: "generation.canceled",
    description: `Generation ${generationId} canceled at its Cancel-After deadline`,
    metadata: { generation_id: generationId, reason: "deadline", error_code: "ERR4006" },
  });
  await queueGenerationFinished(tx, generationId, row.account_id, "canceled");
  return {
    generationId,
    refunded: refund.applied,
    refundedMillis: refund.applied ? refund.amountMillis : 0,
    provider: row.provider_used,
    predictionId: row.prediction_id,
  };
}

import "server-only";
import { recordActivity } from "../../activity/record-activity";
import { refundCredits } from "../../credits/refund-credits";
import { Prisma } from "../../base/generated/prisma/client";
import { inTransaction } from "../../base/transaction";
import { executeInTransaction, queryInTransaction } from "../../base/transaction-sql";
import { queueGenerationFinished } from "../send-generation-finished";
import type { AttemptError } from "./attempt-outcome";

// A run's failure, the one path that records it: one transaction under the generation's row lock.
// In flight with its deadline ahead: `failed` with the error, its running attempts failed, its
// reservation refunded (refundCredits, which re-arms the thresholds the refund crosses), the
// `generation.failed` activity event and the terminal webhook deliveries, all committed together.
// Otherwise nothing is written and the answer says why (the caller runs the deadline's cancel for
// a generation whose Cancel-After passed: finish-generation.ts).

export type FailureInput = { generationId: string; code: string; message: string; errors: AttemptError[] };

export type FailureOutcome = { done: true } | { declined: "not_in_flight" | "past_deadline" };

type Locked = { account_id: string; status: string; past_deadline: boolean };

export async function settleFailure(input: FailureInput): Promise<FailureOutcome> {
  const { generationId, code } = input;
  return inTransaction(async (tx): Promise<FailureOutcome> => {
    const [row] = await queryInTransaction<Locked>(
      tx,
      Prisma.sql`SELECT account_id, status::text AS status, coalesce(deadline_at <= clock_timestamp(), false) AS past_deadline
                   FROM generation WHERE id = ${generationId}::uuid FOR UPDATE`,
    );
    // A retried step whose first try committed: the failure and its webhooks stand.
    if (!row || (row.status !== "pending" && row.status !== "processing")) return { declined: "not_in_flight" };
    if (row.past_deadline) return { declined: "past_deadline" };
    const now = new Date();
    await executeInTransaction(
      tx,
      Prisma.sql`
      WITH failed_attempts AS (
        UPDATE provider_attempt SET outcome = 'failed', error_code = ${code}, finished_at = ${now} WHERE generation_id = ${generationId}::uuid AND outcome = 'running')
      UPDATE generation SET status = 'failed', completed_at = ${now}, error_code = ${code}, error_message = ${input.message.slice(0, 2000)},
             metrics_total_time = EXTRACT(EPOCH FROM (${now}::timestamptz - created_at))::float8, updated_at = ${now}
       WHERE id = ${generationId}::uuid`,
    );
    await refundCredits(tx, { accountId: row.account_id, generationId, description: `Refund for failed generation ${generationId}` });
    await recordActivity(tx, {
      accountId: row.account_id,
      actor: "system",
      category: "generation",
      action: "generation.failed",
      description: `Generation ${generationId} failed: ${code}`,
      metadata: { generation_id: generationId, error_code: code, provider_errors: input.errors },
    });
    await queueGenerationFinished(tx, generationId, row.account_id, "failed");
    return { done: true };
  });
}

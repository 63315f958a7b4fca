import "server-only";
import { recordActivity } from "../../activity/record-activity";
import { chargeCredits } from "../../credits/charge-credits";
import { refundCredits } from "../../credits/refund-credits";
import type { Tx } from "../../db";
import { inTransaction } from "../../transaction";
import { getStorage } from "../../storage/get-storage";
import { queueGenerationFinished } from "../send-generation-finished";
import type { AttemptError } from "./attempt-outcome";

// The terminal transitions of a run, each one transaction under the generation's row
// lock: succeeded + charge, or failed + refund, and the terminal webhook deliveries with them. A
// generation that already left the in-flight states (canceled meanwhile, or swept) is not
// touched: a late result is discarded, never charged.

type Locked = { account_id: string; status: string; created_at: Date };

async function lockGeneration(tx: Tx, generationId: string): Promise<Locked | null> {
  const [row] = await tx.$queryRaw<Locked[]>`SELECT account_id, status, created_at FROM generation WHERE id = ${generationId}::uuid FOR UPDATE`;
  return row && (row.status === "pending" || row.status === "processing") ? row : null;
}

export async function finishSucceeded(input: { generationId: string; attempt: number; outputKeys: string[]; predictTimeSeconds: number | null }) {
  const { generationId, attempt } = input;
  const now = new Date();
  const done = await inTransaction(async (tx) => {
    const attemptRow = await tx.providerAttempt.findUniqueOrThrow({ where: { generationId_attemptNumber: { generationId, attemptNumber: attempt } } });
    const latencyMs = now.getTime() - attemptRow.startedAt.getTime();
    const locked = await lockGeneration(tx, generationId);
    // A retried step whose first try committed: the success and its webhooks stand.
    if (!locked && attemptRow.outcome === "succeeded") return true;
    if (!locked) {
      await tx.providerAttempt.update({ where: { id: attemptRow.id }, data: { outcome: "discarded", wasted: true, finishedAt: now, latencyMs } });
      return false;
    }
    await tx.providerAttempt.update({ where: { id: attemptRow.id }, data: { outcome: "succeeded", finishedAt: now, latencyMs } });
    await tx.generation.update({
      where: { id: generationId },
      data: {
        status: "succeeded",
        outputKeys: input.outputKeys,
        completedAt: now,
        errorCode: null,
        errorMessage: null,
        metricsTotalTime: (now.getTime() - locked.created_at.getTime()) / 1000,
        metricsPredictTime: input.predictTimeSeconds ?? latencyMs / 1000,
      },
    });
    await chargeCredits(tx, { accountId: locked.account_id, generationId });
    await recordActivity(tx, {
      accountId: locked.account_id,
      actor: "system",
      category: "generation",
      action: "generation.succeeded",
      description: `Generation ${generationId} succeeded`,
      metadata: { generation_id: generationId, provider: attemptRow.provider },
    });
    await queueGenerationFinished(tx, generationId, locked.account_id, "succeeded");
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
  const now = new Date();
  const failedNow = await inTransaction(async (tx) => {
    const locked = await lockGeneration(tx, generationId);
    // A retried step whose first try committed: the failure and its webhooks stand.
    if (!locked) return false;
    await tx.generation.update({
      where: { id: generationId },
      data: { status: "failed", completedAt: now, errorCode: code, errorMessage: message.slice(0, 2000), metricsTotalTime: (now.getTime() - locked.created_at.getTime()) / 1000 },
    });
    await tx.providerAttempt.updateMany({ where: { generationId, outcome: "running" }, data: { outcome: "failed", errorCode: code, finishedAt: now } });
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

import { formatCredits } from "../catalog/money";
import { refundCredits } from "../credits/refund-credits";
import { db } from "../db";
import { ApiError } from "../http/errors";
import { log } from "../runtime/log";
import { adapterFor } from "../providers/registry";
import { findOwnGeneration } from "./read-generations";
import { sendGenerationFinished } from "./send-generation-finished";
import { recordActivity } from "../activity/record-activity";

// POST /v1/content/generation/cancel/{id}: while pending or processing, the generation becomes
// `canceled` and its reservation is refunded in one transaction; the provider is then asked to
// stop (best effort). A provider result arriving later changes nothing (finish-generation checks).

export async function cancelGeneration(accountId: string, generationId: string, actor = "system") {
  await findOwnGeneration(accountId, generationId);
  const outcome = await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ status: string; provider_used: string | null; prediction_id: string | null; created_at: Date }>>`
      SELECT status, provider_used, prediction_id, created_at FROM generation WHERE id = ${generationId}::uuid FOR UPDATE`;
    if (!row || (row.status !== "pending" && row.status !== "processing")) {
      throw new ApiError("ERR1010", `The generation is ${row?.status ?? "gone"} and can no longer be canceled.`, { generation_id: generationId, generation_status: row?.status });
    }
    const now = new Date();
    await tx.generation.update({ where: { id: generationId }, data: { status: "canceled", completedAt: now, metricsTotalTime: (now.getTime() - row.created_at.getTime()) / 1000 } });
    const refund = await refundCredits(tx, { accountId, generationId, description: `Refund for canceled generation ${generationId}` });
    await recordActivity(tx, { accountId, actor, category: "generation", action: "generation.canceled", description: `Generation ${generationId} canceled`, metadata: { generation_id: generationId } });
    return { refunded: refund.applied, refundedMillis: refund.applied ? refund.amountMillis : 0, provider: row.provider_used, predictionId: row.prediction_id };
  });

  let providerCancelSent = false;
  if (outcome.provider && outcome.predictionId) {
    try {
      providerCancelSent = await adapterFor(outcome.provider).cancel(outcome.predictionId);
    } catch (error) {
      log.warn("provider cancel failed", { generationId, provider: outcome.provider, error: String(error) });
    }
  }
  await sendGenerationFinished(generationId, accountId, "canceled");
  return {
    generation_id: generationId,
    generation_status: "canceled" as const,
    provider_cancel_sent: providerCancelSent,
    credits_refunded: outcome.refunded,
    credits_refunded_amount: formatCredits(outcome.refundedMillis),
  };
}

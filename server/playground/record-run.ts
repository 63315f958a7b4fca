import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";

// A run from the dashboard, in the transaction that created its generation: who ran it (the
// user's history, a comparison's column) and the activity event that names the user as its actor.

export type RunRecord = {
  accountId: string;
  userId: string;
  generationId: string;
  modelIdentifier: string;
  estimatedCost: string;
  providerOrder: readonly string[];
  comparison: { id: string; position: number } | null;
};

export async function recordRun(tx: Tx, run: RunRecord): Promise<void> {
  await tx.playgroundRun.create({
    data: {
      accountId: run.accountId,
      userId: run.userId,
      generationId: run.generationId,
      comparisonId: run.comparison?.id ?? null,
      position: run.comparison?.position ?? 0,
    },
  });
  const where = run.comparison ? "Compare" : "the playground";
  await recordActivity(tx, {
    accountId: run.accountId,
    actor: run.userId,
    category: "generation",
    action: "generation.created",
    description: `${run.modelIdentifier} generation ${run.generationId} started from ${where} (${run.estimatedCost} credits reserved)`,
    metadata: {
      generation_id: run.generationId,
      model_identifier: run.modelIdentifier,
      source: run.comparison ? "compare" : "playground",
      provider_order: [...run.providerOrder],
      ...(run.comparison ? { comparison_id: run.comparison.id } : {}),
    },
  });
}

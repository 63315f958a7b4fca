import "server-only";
import type { Db } from "../../base/db";
import { decimalToMillis, formatCredits } from "../../base/money";
import { findOwnGeneration } from "./own-generations";
import { toGenerationRecord } from "./public-record";

// One generation as the dashboard's detail page shows it: the public record, the parameters the
// providers received, every provider attempt and the credit ledger entries it caused. Amounts
// leave as numbers of credits (three decimals, exact from integer millicredits).

const credits = (value: { toFixed(): string }) => formatCredits(decimalToMillis(value));

export async function getGenerationDetail(db: Db, accountId: string, generationId: string) {
  const row = await findOwnGeneration(db, accountId, generationId);
  const [account, attempts, ledger] = await Promise.all([
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } }),
    db.providerAttempt.findMany({ where: { generationId: row.id, accountId }, orderBy: { attemptNumber: "asc" } }),
    db.ledgerEntry.findMany({ where: { generationId: row.id, accountId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  ]);
  return {
    record: toGenerationRecord(row, account.plan),
    media_kind: row.mediaKind,
    /** `fastest` tried its second-ranked provider first (routing exploration). */
    routing_exploration: row.routingExploration,
    parameters: row.params as Record<string, unknown>,
    estimated_cost: credits(row.estimatedCost),
    cancelable: row.status === "pending" || row.status === "processing",
    attempts: attempts.map((attempt) => ({
      attempt_number: attempt.attemptNumber,
      provider: attempt.provider,
      outcome: attempt.outcome,
      prediction_id: attempt.predictionId,
      latency_ms: attempt.latencyMs,
      estimated_cost: credits(attempt.estimatedCost),
      wasted: attempt.wasted,
      error_code: attempt.errorCode,
      error_message: attempt.errorMessage,
      started_at: attempt.startedAt.toISOString(),
      finished_at: attempt.finishedAt?.toISOString() ?? null,
    })),
    ledger: ledger.map((entry) => ({
      entry_id: entry.id,
      type: entry.type,
      amount: credits(entry.amount),
      balance_after: credits(entry.balanceAfter),
      description: entry.description,
      created_at: entry.createdAt.toISOString(),
    })),
  };
}

export type GenerationDetail = Awaited<ReturnType<typeof getGenerationDetail>>;

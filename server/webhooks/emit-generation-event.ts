import "server-only";
import { formatCredits } from "../credits/money";
import { findRefundMillis } from "../credits/find-refund";
import type { Tx } from "../db";
import { toGenerationRecord } from "../generations/generation-record";
import { log } from "../runtime/log";
import { inTransaction } from "../transaction";
import { queueWebhookEvent } from "./emit-webhook-event";
import type { QueueResult } from "./queue-deliveries";

// Generation events carry the generation record as GET /v1/content/{id} shows it; a canceled one
// adds what the cancel answered about the refund (`credits_refunded`, `credits_refunded_amount`),
// read from the ledger. Each kind is emitted once per generation: the event key is
// `<event>:<generation id>`.

export type GenerationEventKind = "generation.started" | "generation.completed" | "generation.failed" | "generation.canceled";

const terminalEvents = { succeeded: "generation.completed", failed: "generation.failed", canceled: "generation.canceled" } as const;

/** The terminal event for a generation's status, or null while it is in flight. */
export function terminalEventFor(status: string): GenerationEventKind | null {
  return status in terminalEvents ? terminalEvents[status as keyof typeof terminalEvents] : null;
}

export async function emitGenerationEvent(tx: Tx, generationId: string, event: GenerationEventKind): Promise<QueueResult | null> {
  const row = await tx.generation.findUnique({ where: { id: generationId }, include: { account: { select: { plan: true } } } });
  if (!row) return null;
  const { account, ...generation } = row;
  const data: Record<string, unknown> = toGenerationRecord(generation, account.plan);
  if (event === "generation.canceled") {
    const refundedMillis = await findRefundMillis(tx, row.accountId, generationId);
    data.credits_refunded = refundedMillis !== null;
    data.credits_refunded_amount = formatCredits(refundedMillis ?? 0);
  }
  return queueWebhookEvent(tx, { accountId: row.accountId, event, eventKey: `${event}:${generationId}`, data });
}

/**
 * For the run (run-attempt.ts): queued once per generation, and a webhook problem never stops the
 * run. Its own transaction: the submit step that calls it writes outside one.
 */
export async function emitGenerationStarted(generationId: string): Promise<void> {
  await inTransaction((tx) => emitGenerationEvent(tx, generationId, "generation.started")).catch((error: unknown) => {
    log.error("generation.started webhook not queued", { generationId, error: error instanceof Error ? error.message : String(error) });
  });
}

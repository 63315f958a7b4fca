import "server-only";
import { formatCredits } from "../base/money";
import { findRefundMillis } from "../ledger/find-refund";
import type { Db, Tx } from "../base/db";
import { toGenerationRecord, type RecordSource } from "./records/public-record";
import { RECORD_COLUMNS } from "./records/find-public-record";
import type { PlanName } from "../plans/plan-limits";
import { queueWebhookEvent } from "../webhooks/emit-webhook-event";
import type { QueueResult } from "../webhooks/queue-deliveries";

// Generation events carry the generation record as GET /v1/content/{id} shows it; a canceled one
// adds what the cancel answered about the refund (`credits_refunded`, `credits_refunded_amount`),
// read from the ledger, and why (`reason`: "deadline" when its Cancel-After passed, ERR4006;
// "user" when a client canceled or deleted it). Each kind is emitted once per generation: the event key is
// `<event>:<generation id>`.

export type GenerationEventKind = "generation.started" | "generation.completed" | "generation.failed" | "generation.canceled";

const terminalEvents = { succeeded: "generation.completed", failed: "generation.failed", canceled: "generation.canceled" } as const;

/** The terminal event for a generation's status, or null while it is in flight. */
export function terminalEventFor(status: string): GenerationEventKind | null {
  return status in terminalEvents ? terminalEvents[status as keyof typeof terminalEvents] : null;
}

type EventSource = RecordSource & { plan: PlanName; subscribed: boolean };

/** A fresh result per call, as queueDeliveries answers for no endpoints: callers own its lists. */
const nothingQueued = (): QueueResult => ({ created: [], duplicates: [], deadLetters: [] });

/**
 * The generation as its record reads, its account's plan, and whether any endpoint of the account
 * takes this event: one statement, so the many generations of accounts without webhooks cost a
 * single read here. Inside the caller's transaction, it sees the transition being made.
 */
async function readEventSource(client: Db, generationId: string, event: GenerationEventKind): Promise<EventSource | undefined> {
  const rows = await client.$queryRawUnsafe<EventSource[]>(
    `SELECT r.*, (SELECT plan::text FROM account WHERE id = r."accountId") AS plan,
            EXISTS (SELECT 1 FROM webhook_endpoint e WHERE e.account_id = r."accountId" AND $2 = ANY (e.events)) AS subscribed
       FROM (SELECT ${RECORD_COLUMNS} FROM generation WHERE id = $1::uuid) r`,
    generationId,
    event,
  );
  return rows[0];
}

async function queueEvent(tx: Tx, source: EventSource, event: GenerationEventKind): Promise<QueueResult> {
  const { plan, subscribed: _subscribed, ...generation } = source;
  const data: Record<string, unknown> = toGenerationRecord(generation, plan);
  if (event === "generation.canceled") {
    const refundedMillis = await findRefundMillis(tx, source.accountId, source.id);
    data.credits_refunded = refundedMillis !== null;
    data.credits_refunded_amount = formatCredits(refundedMillis ?? 0);
    data.reason = source.errorCode === "ERR4006" ? "deadline" : "user";
  }
  return queueWebhookEvent(tx, { accountId: source.accountId, event, eventKey: `${event}:${source.id}`, data });
}

/**
 * The read half of emitGenerationEvent, in the caller's transaction: null when no endpoint of the
 * account takes the event (nothing to queue), else the queueing to run next in that transaction,
 * so a caller can put only the writes under a savepoint.
 */
export async function prepareGenerationEvent(
  tx: Tx,
  generationId: string,
  event: GenerationEventKind,
): Promise<(() => Promise<QueueResult>) | null> {
  const source = await readEventSource(tx, generationId, event);
  return source?.subscribed ? () => queueEvent(tx, source, event) : null;
}

export async function emitGenerationEvent(tx: Tx, generationId: string, event: GenerationEventKind): Promise<QueueResult | null> {
  const source = await readEventSource(tx, generationId, event);
  if (!source) return null;
  return source.subscribed ? queueEvent(tx, source, event) : nothingQueued();
}

/** generation.started as read before it is queued (findGenerationStarted). */
export type GenerationStarted = EventSource;

/**
 * For the run (run-attempt.ts), the read half of generation.started, outside any transaction (the
 * submit step that starts an attempt writes outside one): null when no endpoint of the account
 * takes the event, so the run opens no transaction for it.
 */
export async function findGenerationStarted(db: Db, generationId: string): Promise<GenerationStarted | null> {
  const source = await readEventSource(db, generationId, "generation.started");
  return source?.subscribed ? source : null;
}

/** Queues generation.started in the caller's transaction: once per generation (the event key). */
export async function emitGenerationStarted(tx: Tx, started: GenerationStarted): Promise<QueueResult> {
  return queueEvent(tx, started, "generation.started");
}

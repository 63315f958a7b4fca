import "server-only";
import type { Db } from "../base/db";
import { formatCredits } from "../base/money";
import { findRefundMillis } from "../ledger/find-refund";
import type { PlanName } from "../plans/plan-limits";
import { toGenerationRecord, type RecordSource } from "../generations/records/public-record";

// One row of generation_event (written by the triggers of migration generation_events) and what a
// stream sends for it. Record events store the generation's columns as they were at the change;
// the record is made from them when sent (output links are signed then, for the reader's plan),
// and a canceled one adds the refund as the webhook does. Made once per event and plan, however
// many streams send it.

export type LiveEventName =
  | "generation.snapshot"
  | "generation.created"
  | "generation.processing"
  | "generation.attempt"
  | "generation.completed"
  | "generation.failed"
  | "generation.canceled";

export const TERMINAL_EVENTS: ReadonlySet<string> = new Set(["generation.completed", "generation.failed", "generation.canceled"]);

export type StoredEvent = {
  id: bigint;
  accountId: string;
  generationId: string;
  apiKeyId: string | null;
  modelIdentifier: string;
  name: LiveEventName;
  payload: Record<string, unknown>;
};

export type EventRow = {
  id: string;
  account_id: string;
  generation_id: string;
  api_key_id: string | null;
  model_identifier: string;
  name: string;
  payload: Record<string, unknown>;
};

export const EVENT_COLUMNS = "id, account_id, generation_id, api_key_id, model_identifier, name, payload";

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: BigInt(row.id),
    accountId: row.account_id,
    generationId: row.generation_id,
    apiKeyId: row.api_key_id,
    modelIdentifier: row.model_identifier,
    name: row.name as LiveEventName,
    payload: row.payload,
  };
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The generation row as to_jsonb wrote it (snake case, times as text) → the record's source. */
export function recordSourceOf(payload: Record<string, unknown>): RecordSource {
  const source: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(payload)) {
    const key = camel(name);
    source[key] = typeof value === "string" && key.endsWith("At") ? new Date(value) : value;
  }
  for (const list of ["inputFiles", "providerOrder", "outputKeys", "outputLocations"]) source[list] ??= [];
  return source as RecordSource;
}

const carriesRecord = (name: LiveEventName) => name !== "generation.attempt";

const made = new WeakMap<StoredEvent, Map<PlanName, Promise<Record<string, unknown>>>>();

/** The event's `data:` for a reader on `plan`. */
export function eventData(client: Db, event: StoredEvent, plan: PlanName): Promise<Record<string, unknown>> {
  if (!carriesRecord(event.name)) return Promise.resolve(event.payload);
  const byPlan = made.get(event) ?? new Map<PlanName, Promise<Record<string, unknown>>>();
  made.set(event, byPlan);
  let data = byPlan.get(plan);
  if (!data) {
    data = recordData(client, event, plan);
    byPlan.set(plan, data);
  }
  return data;
}

async function recordData(client: Db, event: StoredEvent, plan: PlanName): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = toGenerationRecord(recordSourceOf(event.payload), plan);
  if (event.name === "generation.canceled") {
    const refundedMillis = await findRefundMillis(client, event.accountId, event.generationId);
    data.credits_refunded = refundedMillis !== null;
    data.credits_refunded_amount = formatCredits(refundedMillis ?? 0);
  }
  return data;
}

/** One SSE message: `id:`, `event:` and one `data:` line of JSON. */
export function sseMessage(id: bigint | string, name: string, data: unknown): string {
  return `id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

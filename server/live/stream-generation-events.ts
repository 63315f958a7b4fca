import "server-only";
import { db, sqlPool } from "../base/db";
import type { OneAccount } from "../base/account-scope";
import type { PlanName } from "../plans/plan-limits";
import { readGenerationRecord } from "../generations/records/find-public-record";
import { terminalEventFor } from "../generations/emit-generation-event";
import { claimStreamSlot } from "./stream-slots";
import { openEventStream } from "./open-event-stream";
import { eventData, toStoredEvent, type EventRow } from "./live-event";

// GET /v1/content/{generation_id}/events: the generation's snapshot (the record as GET
// /v1/content/{id} answers it), then its events as they commit, ending after the terminal one. A
// finished generation gets its snapshot and terminal event at once; a client resuming with
// Last-Event-ID gets the snapshot (with no id) and the events it missed up to the terminal one (none
// when it had that one); one resuming too far back gets a fresh start (a snapshot with a new id).

/** `keyHash`: the API key whose refusal ends the stream (null for a dashboard session's stream). */
export type StreamInput = { plan: PlanName; keyHash: string | null; lastEventId: string | null; signal: AbortSignal };

async function findTerminalEvent(accountId: string, generationId: string) {
  const { rows } = await sqlPool().query<EventRow>(
    `SELECT id::text, account_id, generation_id, api_key_id, model_identifier, name, payload FROM generation_event
      WHERE generation_id = $1 AND account_id = $2 AND name IN ('generation.completed', 'generation.failed', 'generation.canceled')
      ORDER BY generation_event.id DESC LIMIT 1`,
    [generationId, accountId],
  );
  return rows[0] ? toStoredEvent(rows[0]) : null;
}

export async function streamGenerationEvents(
  scope: OneAccount,
  input: StreamInput & { generationId: string },
): Promise<ReadableStream<Uint8Array>> {
  const { accountId } = scope;
  const { generationId, plan, lastEventId } = input;
  const release = await claimStreamSlot(accountId, plan);
  try {
    const filter = { accountId, plan, keyHash: input.keyHash, generationId, skip: new Set(["generation.created"]), onClose: release };
    return await openEventStream(filter, lastEventId, input.signal, async ({ cursor, resumed }) => {
      const record = await readGenerationRecord(sqlPool(), scope, { generationId, plan });
      const terminalName = terminalEventFor(record.generation_status);
      // In flight: the snapshot is the position a fresh stream starts from. A resumed stream's
      // snapshot has no id: the client holds the one it resumed from (no id is sent twice).
      if (!terminalName) return { first: [{ id: resumed ? null : cursor, name: "generation.snapshot", data: record }], end: false };
      const snapshot = { id: null, name: "generation.snapshot", data: record };
      const terminal = await findTerminalEvent(accountId, generationId);
      if (!terminal) return { first: [snapshot, { id: null, name: terminalName, data: record }], end: true };
      if (resumed && terminal.id <= cursor) return { first: [snapshot], end: true };
      // A client resuming gets what it missed, up to the terminal event, which ends the stream.
      if (resumed) return { first: [snapshot], end: false };
      return { first: [snapshot, { id: terminal.id, name: terminal.name, data: await eventData(db, terminal, plan) }], end: true };
    });
  } catch (error) {
    release();
    throw error;
  }
}

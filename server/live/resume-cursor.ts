import "server-only";
import { sqlPool } from "../base/db";
import { ApiError } from "../base/error-table";
import { openEventCursor } from "./event-cursor";

// A client's Last-Event-ID → the event id to resume after. An event cursor (`ev_…`) opens only for
// its own account (else ERR1001). A numeric id is one sent before ids became cursors: good up to the
// last of those (migration event_cursors; 0 is "from the start"); past it, null: the stream resets.

export async function resumeAfter(accountId: string, lastEventId: string): Promise<bigint | null> {
  if (/^\d+$/.test(lastEventId)) {
    const numeric = BigInt(lastEventId);
    const { rows } = await sqlPool().query<{ end: string }>("SELECT darkroom_legacy_event_ids_end()::text AS end");
    return numeric <= BigInt(rows[0]?.end ?? "0") ? numeric : null;
  }
  const after = openEventCursor(accountId, lastEventId);
  if (after === null)
    throw new ApiError("ERR1001", "Last-Event-ID is not an event id of this account.", {
      fields: [{ field: "Last-Event-ID", message: "is not an event id of this account's streams" }],
    });
  return after;
}

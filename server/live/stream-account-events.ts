import "server-only";
import type { OneAccount } from "../base/account-scope";
import { claimStreamSlot } from "./stream-slots";
import { openEventStream } from "./open-event-stream";
import type { StreamInput } from "./stream-generation-events";
import { RESUME_LIMITS } from "./read-event-backlog";

// GET /v1/content/events: every generation event of the account (optionally of one model), for as
// long as the client stays, holding one of the account's /v1 stream slots; a resume too far back
// gets `stream.reset` (with a fresh id) first. The dashboard's stream (stream-dashboard-events.ts)
// is the same feed for a member's session.

export async function streamAccountEvents(
  scope: OneAccount,
  input: StreamInput & { modelIdentifier?: string },
): Promise<ReadableStream<Uint8Array>> {
  const { accountId } = scope;
  const release = await claimStreamSlot(accountId, input.plan);
  try {
    const filter = { accountId, plan: input.plan, keyHash: input.keyHash, modelIdentifier: input.modelIdentifier, onClose: release };
    // A resume too far back (or from an unknown id) starts afresh, and says so.
    return await openEventStream(filter, input.lastEventId, input.signal, async ({ cursor, reset }) => ({
      first: reset ? [{ id: cursor, name: "stream.reset", data: { reason: reset, resume_limits: RESUME_LIMITS } }] : [],
      end: false,
    }));
  } catch (error) {
    release();
    throw error;
  }
}

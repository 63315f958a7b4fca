import "server-only";
import type { OneAccount } from "../account-scope";
import { claimStreamSlot } from "./stream-slots";
import { openEventStream } from "./open-event-stream";
import type { StreamInput } from "./stream-generation-events";

// GET /v1/content/events: every generation event of the account (optionally of one model), for as
// long as the client stays, holding one of the account's /v1 stream slots. The dashboard's stream
// (stream-dashboard-events.ts) is the same feed for a member's session.

export async function streamAccountEvents(scope: OneAccount, input: StreamInput & { modelIdentifier?: string }): Promise<ReadableStream<Uint8Array>> {
  const { accountId } = scope;
  const release = await claimStreamSlot(accountId, input.plan);
  try {
    const filter = { accountId, plan: input.plan, keyHash: input.keyHash, modelIdentifier: input.modelIdentifier, onClose: release };
    return await openEventStream(filter, input.lastEventId, input.signal, async () => ({ first: [], end: false }));
  } catch (error) {
    release();
    throw error;
  }
}

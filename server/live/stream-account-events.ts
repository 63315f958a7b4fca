import "server-only";
import type { OneAccount } from "../account-scope";
import { claimStreamSlot } from "./stream-slots";
import { openEventStream } from "./open-event-stream";
import { withRelease, type StreamInput } from "./stream-generation-events";

// GET /v1/content/events: every generation event of the account (optionally of one model), for as
// long as the client stays.

export async function streamAccountEvents(scope: OneAccount, input: StreamInput & { modelIdentifier?: string }): Promise<ReadableStream<Uint8Array>> {
  const { accountId } = scope;
  const release = claimStreamSlot(accountId, input.plan);
  try {
    const filter = { accountId, plan: input.plan, keyHash: input.keyHash, modelIdentifier: input.modelIdentifier };
    const body = await openEventStream(filter, input.lastEventId, input.signal, async () => ({ first: [], end: false }));
    return withRelease(body, release);
  } catch (error) {
    release();
    throw error;
  }
}

import "server-only";
import { accountScope } from "../../../base/account-scope";
import { ApiError } from "../../../base/error-table";
import { hashApiKey } from "../../../keys/generate-key";
import { lastEventIdSchema } from "../../contract/generations";
import { streamAccountEvents } from "../../../live/stream-account-events";
import { streamGenerationEvents } from "../../../live/stream-generation-events";
import { bearerToken } from "../authenticate";
import { streams } from "../operations";
import { withApiKey } from "../with-api-key";
import type { OperationResult } from "../define-operation";

// The live streams: the checkpoint has run (key, scope, rate limit) and writes the request log
// once, as the stream starts; the domain opens the stream, and errors before it are envelopes.

/** `Last-Event-ID` (what an EventSource sends when it reconnects) or `?last_event_id=`. */
function lastEventIdOf(request: Request, fromQuery: string | undefined): string | null {
  const header = request.headers.get("last-event-id")?.trim();
  const value = header || fromQuery;
  if (!value) return null;
  if (!lastEventIdSchema.safeParse(value).success)
    throw new ApiError("ERR1001", "Last-Event-ID must be an event id.", {
      fields: [{ field: "Last-Event-ID", message: "must be an event id as sent in `id:`" }],
    });
  return value;
}

function eventStream(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform: no compression layer (Next's included) may hold events back.
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}

export const streamGenerationEventsRoute = withApiKey(
  streams.streamGenerationEvents,
  async ({ accountId, key, params, query, request }) => {
    const body = await streamGenerationEvents(accountScope(accountId), {
      generationId: params.generation_id ?? "",
      plan: key.account.plan,
      keyHash: hashApiKey(bearerToken(request) ?? ""),
      lastEventId: lastEventIdOf(request, query.last_event_id),
      signal: request.signal,
    });
    return eventStream(body) as unknown as OperationResult<typeof streams.streamGenerationEvents>;
  },
);

export const streamAccountEventsRoute = withApiKey(streams.streamAccountEvents, async ({ accountId, key, query, request }) => {
  const body = await streamAccountEvents(accountScope(accountId), {
    modelIdentifier: query.model_identifier,
    plan: key.account.plan,
    keyHash: hashApiKey(bearerToken(request) ?? ""),
    lastEventId: lastEventIdOf(request, query.last_event_id),
    signal: request.signal,
  });
  return eventStream(body) as unknown as OperationResult<typeof streams.streamAccountEvents>;
});

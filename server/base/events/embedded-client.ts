import { createHmac } from "node:crypto";
import type { ClientOptions, Logger } from "inngest";
import { InvalidEventError } from "./event-store";
import type { EventSink } from "./executor-registry";

// Client options for embedded mode. The client stays in "cloud" mode with a signing key derived
// from AUTH_SECRET, so the serve handler verifies every request (only the executor can sign);
// its `fetch` answers the event API in-process: events go to the executor (persisted before the
// ack) instead of the network. Nothing here ever reaches EMBEDDED_API_ORIGIN.

export const EMBEDDED_API_ORIGIN = "http://inngest-embedded.invalid";
const EMBEDDED_EVENT_KEY = "embedded";

const signingKeys = new Map<string, string>();

/** Derived once per secret: the SDK asks for it on every request it serves or signs. */
export function embeddedSigningKey(secret: string): string {
  let key = signingKeys.get(secret);
  if (key === undefined) {
    key = `signkey-embedded-${createHmac("sha256", secret).update("darkroom embedded inngest executor").digest("hex")}`;
    signingKeys.set(secret, key);
  }
  return key;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const ASYNC_CHECKPOINT = /^\/v1\/checkpoint\/([^/]+)\/async$/;

/**
 * A fetch for the client: POST /e/<key> (send) goes to the sink, and so does POST
 * /v1/checkpoint/<run>/async (the steps a Call Request ran and went on past, memoized into the run
 * the executor is driving); anything else is a 404.
 */
export function createEmbeddedFetch(appId: string, sink: () => EventSink): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    const checkpoint = request.method === "POST" ? ASYNC_CHECKPOINT.exec(pathname) : null;
    if (checkpoint) {
      const body = JSON.parse(await request.text()) as { steps?: unknown };
      const taken = Array.isArray(body.steps) && sink().checkpointSteps?.(decodeURIComponent(checkpoint[1] as string), body.steps) === true;
      // Not driven here: the SDK retries, then answers with the steps itself (its fallback).
      return taken ? json(200, {}) : json(500, { error: "the run is not being driven by this process" });
    }
    if (request.method !== "POST" || !pathname.startsWith("/e/")) {
      return json(404, { status: 404, error: `${request.method} ${pathname} is not available with the embedded executor` });
    }
    try {
      const body: unknown = JSON.parse(await request.text());
      const events = Array.isArray(body) ? body : [body];
      const ids = await sink().ingestEvents(appId, events, request.headers.get("x-inngest-event-id-seed"));
      return json(200, { ids, status: 200 });
    } catch (error) {
      // A bad event is the caller's; anything else (the database) is worth the SDK's retry.
      const status = error instanceof InvalidEventError || error instanceof SyntaxError ? 400 : 500;
      return json(status, { ids: [], status, error: error instanceof Error ? error.message : String(error) });
    }
  };
}

/** Full client options for embedded mode (built whole: the signing key is a lazy getter). */
export function embeddedClientOptions(options: {
  id: string;
  sink: () => EventSink;
  signingKey: () => string | undefined;
  logger?: Logger;
}): ClientOptions {
  const clientOptions: ClientOptions = {
    id: options.id,
    isDev: false,
    baseUrl: EMBEDDED_API_ORIGIN,
    eventKey: EMBEDDED_EVENT_KEY,
    // Off by default (the executor enforces step limits per Call Request); a function may opt in
    // (run-generation does), and its checkpoints reach the executor through createEmbeddedFetch.
    checkpointing: false,
    fetch: createEmbeddedFetch(options.id, options.sink),
    ...(options.logger ? { logger: options.logger } : {}),
  };
  // Read on every use, so a client created before boot settles AUTH_SECRET still verifies.
  Object.defineProperty(clientOptions, "signingKey", { enumerable: true, get: options.signingKey });
  return clientOptions;
}

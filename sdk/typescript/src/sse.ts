import { DarkroomConnectionError, DarkroomError } from "./errors.js";
import { attemptSignal, backoffMs, errorOfAnswer, retryDelayMs, sleep, type Transport } from "./transport.js";

// Server-Sent Events over fetch (no EventSource: it cannot send an Authorization header). The
// parser follows the WHATWG format (`id:`, `event:`, `data:` lines, a blank line ends an event,
// `:` lines are comments such as heartbeats); the stream reconnects with `Last-Event-ID` after a
// dropped connection, so no event is lost, and no event id is handed out twice (ids are opaque
// strings, compared for equality only).

export type RawEvent = {
  /** The last event id as EventSource keeps it: this event's own, else the one before it. */
  id: string | null;
  /** This event's own `id:` line, null when it had none (a resume snapshot may have none). */
  ownId: string | null;
  event: string;
  data: string;
  retry: number | null;
};

/** One event as the client hands it out: `data` parsed from JSON; `id` its own id, null when it has none. */
export type StreamEvent<T = unknown> = { id: string | null; event: string; data: T };

/** How many recent ids a stream remembers to drop a repeat (a resume repeats at most a few). */
const REMEMBERED_IDS = 1024;

/** The ids a stream has handed out (and the caller's starting one), the most recent kept. */
class HandedOutIds {
  private readonly ids = new Set<string>();

  constructor(first: string | null) {
    if (first) this.ids.add(first);
  }

  /** False when `id` was handed out already; else remembers it. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    // A Set iterates in insertion order: the first is the oldest.
    if (this.ids.size > REMEMBERED_IDS) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}

export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<RawEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let id: string | null = null;
  let ownId: string | null = null;
  let event = "";
  let data: string[] = [];
  let retry: number | null = null;
  const line = (text: string): RawEvent | null => {
    if (text === "") {
      const dispatched = data.length ? { id, ownId, event: event || "message", data: data.join("\n"), retry } : null;
      ownId = null;
      event = "";
      data = [];
      retry = null;
      return dispatched;
    }
    if (text.startsWith(":")) return null;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = ownId = value;
    else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
    return null;
  };
  try {
    for (let done = false; !done;) {
      const chunk = await reader.read();
      done = chunk.done;
      buffer += done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A lone \r at the end may be the first half of \r\n: wait for more, unless nothing more comes.
        if (!match || (!done && match[0] === "\r" && match.index === buffer.length - 1)) break;
        const dispatched = line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
        if (dispatched) yield dispatched;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export type StreamOptions = {
  /** Resume after this event id (sent as `Last-Event-ID`). */
  lastEventId?: string | null;
  signal?: AbortSignal;
  /** Reconnects in a row that may fail before the stream gives up; the client's `maxRetries` by default. */
  maxReconnects?: number;
};

/**
 * Reads `path` as an event stream, reconnecting with `Last-Event-ID` when the connection drops.
 * Ends when `isLast(event)` says so (a per-generation stream's terminal event), when the caller
 * stops iterating, or on an error before a stream started that is not retryable. An event without
 * an id (a resume snapshot) keeps the last one; an event whose id was handed out already (or is
 * the caller's `lastEventId`) is dropped, though it still counts for `isLast` and `endsCleanly`.
 */
export async function* readEventStream<T>(
  transport: Transport,
  path: string,
  query: Record<string, string | undefined>,
  options: StreamOptions,
  isLast: (event: StreamEvent<T>) => boolean,
  /** An event after which a clean end of the stream is its end, not a cut to resume from. */
  endsCleanly: (event: StreamEvent<T>) => boolean = () => false,
): AsyncGenerator<StreamEvent<T>> {
  let lastEventId = options.lastEventId || null;
  const handedOut = new HandedOutIds(lastEventId);
  const maxReconnects = options.maxReconnects ?? transport.options.maxRetries;
  let failures = 0;
  let serverRetryMs: number | null = null;
  for (;;) {
    // No timeout on an open stream: heartbeats keep it alive, and the caller's signal ends it.
    const timing = attemptSignal(Infinity, options.signal);
    let opened = false;
    let finished = false;
    try {
      const response = await transport.fetch(transport.url(path, query), {
        method: "GET",
        headers: transport.headers({
          accept: "text/event-stream",
          "cache-control": "no-cache",
          ...(lastEventId ? { "last-event-id": lastEventId } : {}),
        }),
        signal: timing.signal,
      });
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream") || !response.body) {
        throw await errorOfAnswer(response);
      }
      opened = true;
      for await (const raw of parseEventStream(response.body)) {
        failures = 0;
        if (raw.retry !== null) serverRetryMs = raw.retry;
        // `id:` with no value clears the id (EventSource's rule): the next connection sends none.
        if (raw.ownId !== null) lastEventId = raw.ownId || null;
        let data: unknown = raw.data;
        try {
          data = JSON.parse(raw.data);
        } catch {
          // not JSON: handed out as text
        }
        const event: StreamEvent<T> = { id: raw.ownId || null, event: raw.event, data: data as T };
        if (event.id === null || handedOut.add(event.id)) yield event;
        if (isLast(event)) return;
        if (endsCleanly(event)) finished = true;
      }
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason ?? error;
      const failure =
        error instanceof DarkroomError
          ? error
          : new DarkroomConnectionError({
              message: `The event stream ${path} failed: ${String((error as Error)?.message ?? error)}`,
              code: "connection_error",
              type: "connection_error",
              status: 0,
              retryable: true,
              requestId: null,
              cause: error,
            });
      // Refused before it started and not worth asking again (no key, no scope, no such generation).
      if (!opened && !failure.retryable) throw failure;
      if (failures >= maxReconnects) throw failure;
      failures++;
      await sleep(retryDelayMs(failure, failures - 1) ?? backoffMs(failures - 1), options.signal);
      continue;
    } finally {
      // Also when the caller stopped iterating: the connection closes now, not at the next heartbeat.
      timing.abort();
      timing.done();
    }
    // A resumed stream of a generation that had already ended: its snapshot said so.
    if (finished) return;
    // The server ended the stream before its last event (a restart, a proxy's idle cut): resume.
    if (failures >= maxReconnects)
      throw new DarkroomConnectionError({
        message: `The event stream ${path} kept ending`,
        code: "connection_error",
        type: "connection_error",
        status: 0,
        retryable: true,
        requestId: null,
      });
    failures++;
    await sleep(serverRetryMs ?? backoffMs(failures - 1), options.signal);
  }
}

import "server-only";
import { db } from "../db";
import type { PlanName } from "../plans/plan-limits";
import type { DashboardSession } from "./dashboard-access";
import { hubReady, subscribe, watermark, type Subscriber } from "./event-hub";
import { eventData, sseMessage, TERMINAL_EVENTS, type StoredEvent } from "./live-event";
import { readEventBacklog } from "./read-event-backlog";

// One Server-Sent Events stream over the hub: subscribed first, then the backlog after the
// client's Last-Event-ID read from the table up to the hub's watermark, then the live events,
// each sent once (ids only grow: anything at or below the last id sent is dropped). Sending is a
// chain, so events leave in id order even when one's record takes a read to make.

export type StreamFilter = {
  accountId: string;
  plan: PlanName;
  keyHash: string | null;
  /** The dashboard session whose access the stream lives by (dashboard streams only). */
  session?: DashboardSession;
  /** Only this generation's events (the per-generation stream). */
  generationId?: string;
  modelIdentifier?: string;
  /** Events this stream never sends (generation.created on a generation's own stream). */
  skip?: ReadonlySet<string>;
  /** Called once when the stream ends, however it ends (gives back its slot). */
  onClose?: () => void;
};

export type StreamStart = {
  /** Sent first (the generation.snapshot, and a finished generation's terminal event). */
  first: Array<{ id: bigint; name: string; data: unknown }>;
  /** The stream ends after `first`. */
  end: boolean;
};

const encoder = new TextEncoder();
/** A client this far behind is dropped rather than held in memory. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function matches(filter: StreamFilter, event: StoredEvent) {
  if (filter.generationId && event.generationId !== filter.generationId) return false;
  if (filter.modelIdentifier && event.modelIdentifier !== filter.modelIdentifier) return false;
  return !filter.skip?.has(event.name);
}

/**
 * Subscribes (so nothing committed from now on is missed) and answers the cursor the stream starts
 * from: the client's Last-Event-ID, else the watermark. `start` is called with it before anything
 * is sent; it may throw (ERR1006) and then the subscription is dropped.
 */
export async function openEventStream(filter: StreamFilter, lastEventId: bigint | null, signal: AbortSignal, start: (cursor: bigint) => Promise<StreamStart>): Promise<ReadableStream<Uint8Array>> {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let closed = false;
  let sentUpTo = 0n;
  let live = false;
  const waiting: StoredEvent[] = [];
  let chain: Promise<void> = Promise.resolve();

  const write = (text: string) => {
    if (closed || !controller) return;
    if ((controller.desiredSize ?? 0) < -MAX_BUFFERED_BYTES) return close();
    controller.enqueue(encoder.encode(text));
  };
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    filter.onClose?.();
    signal.removeEventListener("abort", close);
    try {
      controller?.close();
    } catch {
      // already closed or errored
    }
  };
  const send = (event: StoredEvent) => {
    if (event.id <= sentUpTo || !matches(filter, event)) return;
    sentUpTo = event.id;
    chain = chain.then(async () => {
      if (closed) return;
      write(sseMessage(event.id, event.name, await eventData(db, event, filter.plan)));
      if (filter.generationId && TERMINAL_EVENTS.has(event.name)) close();
    });
    chain = chain.catch(() => close());
  };

  const subscriber: Subscriber = {
    accountId: filter.accountId,
    keyHash: filter.keyHash,
    session: filter.session,
    push: (event) => (live ? send(event) : waiting.push(event)),
    heartbeat: () => write(": heartbeat\n\n"),
    end: () => {
      chain = chain.then(close);
    },
  };
  const unsubscribe = subscribe(subscriber);
  let opening: StreamStart;
  let cursor: bigint;
  try {
    await hubReady();
    cursor = lastEventId ?? watermark();
    sentUpTo = cursor;
    opening = await start(cursor);
  } catch (error) {
    unsubscribe();
    throw error;
  }

  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel() {
      close();
    },
  });
  signal.addEventListener("abort", close);
  if (signal.aborted) close();
  for (const message of opening.first) write(sseMessage(message.id, message.name, message.data));
  if (opening.first.length === 0) write(": stream open\n\n");
  if (opening.end) {
    close();
    return body;
  }

  void (async () => {
    try {
      const upTo = watermark();
      if (cursor < upTo) for (const event of await readEventBacklog(db, filter, cursor, upTo)) send(event);
      live = true;
      for (const event of waiting.splice(0)) send(event);
    } catch {
      close();
    }
  })();
  return body;
}

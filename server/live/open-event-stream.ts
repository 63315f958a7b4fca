import "server-only";
import { db } from "../base/db";
import type { PlanName } from "../plans/plan-limits";
import type { DashboardSession } from "./dashboard-access";
import { hubReady, subscribe, watermark, type Subscriber } from "./event-hub";
import { eventData, sseMessage, TERMINAL_EVENTS, type StoredEvent } from "./live-event";
import { eventCursor } from "./event-cursor";
import { checkResume, readEventBacklog, type ResetReason } from "./read-event-backlog";
import { resumeAfter } from "./resume-cursor";

// One Server-Sent Events stream over the hub: subscribed first, then the backlog after the
// client's Last-Event-ID read from the table in pages, each only once the client took the last,
// then the live events, each sent once (ids only grow: anything at or below the last id sent is
// dropped). Sending is a chain, so events leave in id order even when one's record takes a read.
// The bytes queued for the client are counted: past MAX_QUEUED_BYTES the stream is ended (its
// queue dropped) and the client resumes with Last-Event-ID.

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

/** Where the stream starts: after `cursor`; `resumed` when that is the client's Last-Event-ID. */
export type StreamOpening = { cursor: bigint; resumed: boolean; reset: ResetReason | null };

/** `id` null: a message with no `id:` (the client keeps the last id it had). */
export type StreamMessage = { id: bigint | null; name: string; data: unknown };

export type StreamStart = {
  /** Sent first (the generation.snapshot, a finished generation's terminal event, a reset). */
  first: StreamMessage[];
  /** The stream ends after `first`. */
  end: boolean;
};

/** A client this far behind is dropped rather than held in memory; it resumes with Last-Event-ID. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** Bytes queued under which the next backlog event is sent. */
const QUEUE_HIGH_WATER = 64 * 1024;
const BACKLOG_PAGE = 50;
/** Live events held while the backlog is sent; past it they are read from the table instead. */
const MAX_HELD = 200;

const encoder = new TextEncoder();

/** Errors a stream whose client fell MAX_QUEUED_BYTES behind: the writer drops the connection. */
export class StreamTooFarBehind extends Error {
  constructor() {
    super("the client fell too far behind");
    this.name = "StreamTooFarBehind";
  }
}

function matches(filter: StreamFilter, event: StoredEvent) {
  if (filter.generationId && event.generationId !== filter.generationId) return false;
  if (filter.modelIdentifier && event.modelIdentifier !== filter.modelIdentifier) return false;
  return !filter.skip?.has(event.name);
}

/**
 * The event's message bytes for a reader on `plan`, made once and shared by every stream that sends
 * it (its id depends only on the event's own account): many streams behind hold one copy.
 */
const messages = new WeakMap<StoredEvent, Map<PlanName, Promise<Uint8Array>>>();
function messageOf(event: StoredEvent, plan: PlanName): Promise<Uint8Array> {
  const byPlan = messages.get(event) ?? new Map<PlanName, Promise<Uint8Array>>();
  messages.set(event, byPlan);
  let message = byPlan.get(plan);
  if (!message) {
    message = eventData(db, event, plan).then((data) =>
      encoder.encode(sseMessage(eventCursor(event.accountId, event.id), event.name, data)),
    );
    byPlan.set(plan, message);
  }
  return message;
}

function messageText(accountId: string, message: StreamMessage): string {
  const data = `event: ${message.name}\ndata: ${JSON.stringify(message.data)}\n\n`;
  return message.id === null ? data : `id: ${eventCursor(accountId, message.id)}\n${data}`;
}

/** The cursor to start after: the client's (unless too far back or unknown), else the watermark. */
async function openingOf(filter: StreamFilter, lastEventId: string | null): Promise<StreamOpening> {
  const upTo = watermark();
  if (lastEventId === null) return { cursor: upTo, resumed: false, reset: null };
  const after = await resumeAfter(filter.accountId, lastEventId);
  if (after === null) return { cursor: upTo, resumed: false, reset: "cursor_unknown" };
  const { reset, newest } = await checkResume(db, filter, after, new Date());
  // Starting afresh: after the newest event (never one the client had), even if not read here yet.
  return reset ? { cursor: newest > upTo ? newest : upTo, resumed: false, reset } : { cursor: after, resumed: true, reset: null };
}

/**
 * Subscribes (so nothing committed from now on is missed) and works out where the stream starts
 * (`StreamOpening`). `start` is called with it before anything is sent; it may throw (ERR1006) and
 * then the subscription is dropped.
 */
export async function openEventStream(
  filter: StreamFilter,
  lastEventId: string | null,
  signal: AbortSignal,
  start: (opening: StreamOpening) => Promise<StreamStart>,
): Promise<ReadableStream<Uint8Array>> {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let closed = false;
  let sentUpTo = 0n;
  let live = false;
  const held: StoredEvent[] = [];
  let heldOverflow = false;
  let drained: (() => void) | null = null;
  let chain: Promise<void> = Promise.resolve();

  const queuedBytes = () => QUEUE_HIGH_WATER - (controller?.desiredSize ?? 0);
  const close = (error?: Error) => {
    if (closed) return;
    closed = true;
    unsubscribe();
    filter.onClose?.();
    signal.removeEventListener("abort", onAbort);
    drained?.();
    try {
      if (error) controller?.error(error);
      else controller?.close();
    } catch {
      // already closed or errored
    }
  };
  const onAbort = () => close();
  const write = (text: string | Uint8Array) => {
    if (closed || !controller) return;
    controller.enqueue(typeof text === "string" ? encoder.encode(text) : text);
    if (queuedBytes() > MAX_QUEUED_BYTES) close(new StreamTooFarBehind());
  };
  /** Resolves once the client has taken what was queued down to the high-water mark (or the stream ended). */
  const whenDrained = () =>
    closed || queuedBytes() < QUEUE_HIGH_WATER
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          drained = resolve;
        });
  const send = (event: StoredEvent) => {
    if (event.id <= sentUpTo || !matches(filter, event)) return;
    sentUpTo = event.id;
    chain = chain.then(async () => {
      if (closed) return;
      write(await messageOf(event, filter.plan));
      if (filter.generationId && TERMINAL_EVENTS.has(event.name)) close();
    });
    chain = chain.catch(() => close());
  };
  const hold = (event: StoredEvent) => {
    if (heldOverflow) return;
    if (held.length < MAX_HELD) held.push(event);
    else heldOverflow = true;
  };

  const subscriber: Subscriber = {
    accountId: filter.accountId,
    keyHash: filter.keyHash,
    session: filter.session,
    push: (event) => (live ? send(event) : hold(event)),
    heartbeat: () => write(": heartbeat\n\n"),
    end: () => {
      chain = chain.then(() => close());
    },
  };
  const unsubscribe = subscribe(subscriber);
  let opening: StreamOpening;
  let first: StreamStart;
  try {
    await hubReady();
    opening = await openingOf(filter, lastEventId);
    sentUpTo = opening.cursor;
    first = await start(opening);
  } catch (error) {
    unsubscribe();
    throw error;
  }

  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      pull() {
        const resolve = drained;
        drained = null;
        resolve?.();
      },
      cancel() {
        close();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUE_HIGH_WATER }),
  );
  // Ended while it opened (a sign-out, a refused key, a shutdown): close() had no body to end then.
  if (closed) {
    endOpenedBody(controller);
    return body;
  }
  signal.addEventListener("abort", onAbort);
  if (signal.aborted) close();
  for (const message of first.first) write(messageText(filter.accountId, message));
  if (first.first.length === 0) write(": stream open\n\n");
  if (first.end) {
    close();
    return body;
  }

  void (async () => {
    try {
      let readUpTo = opening.cursor;
      for (;;) {
        const upTo = watermark();
        while (readUpTo < upTo && !closed) {
          const page = await readEventBacklog(db, filter, readUpTo, upTo, BACKLOG_PAGE);
          // One event at a time under the high-water mark: a page of large records never nears the cap.
          for (const event of page) {
            send(event);
            await chain;
            await whenDrained();
          }
          readUpTo = page.length < BACKLOG_PAGE ? upTo : page.at(-1)!.id;
        }
        if (!heldOverflow || closed) break;
        // More arrived meanwhile than is held: what was held is read from the table instead.
        heldOverflow = false;
        held.length = 0;
      }
      live = true;
      for (const event of held.splice(0)) send(event);
    } catch {
      close();
    }
  })();
  return body;
}

/** Ends a body made after its stream was closed (its start() ran synchronously, so it has one). */
function endOpenedBody(controller: ReadableStreamDefaultController<Uint8Array> | null) {
  try {
    controller?.close();
  } catch {
    // already closed
  }
}

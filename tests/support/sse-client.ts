import { baseUrl } from "@/tests/support/http";

// A plain Server-Sent Events client, as a customer would write one over fetch: reads the body as
// it arrives and splits it into events (`id:`, `event:`, `data:`) and comments (heartbeats).

export type SseEvent = { id: string | null; event: string; data: unknown };

export type SseStream = {
  status: number;
  headers: Headers;
  /** The envelope when the answer was not a stream (an error before it started). */
  body: unknown;
  events: SseEvent[];
  comments: string[];
  /** Resolves once the server ended the stream (or the client closed it). */
  ended: Promise<void>;
  /** Resolves with the first event (from the start) matching, or rejects when the stream ends without one. */
  waitFor(match: (event: SseEvent) => boolean): Promise<SseEvent>;
  /** Resolves with the first comment line (from the start) matching, e.g. a heartbeat. */
  waitForComment(match: (comment: string) => boolean): Promise<string>;
  close(): void;
};

export async function openSse(
  path: string,
  options: { key?: string; lastEventId?: string; base?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.lastEventId !== undefined) headers["last-event-id"] = options.lastEventId;
  const response = await fetch(`${options.base ?? baseUrl()}${path}`, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters: Array<{ match: (event: SseEvent) => boolean; resolve: (event: SseEvent) => void; reject: (error: Error) => void }> = [];
  const commentWaiters: Array<{ match: (comment: string) => boolean; resolve: (comment: string) => void; reject: (error: Error) => void }> =
    [];
  const isStream = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
  if (!isStream) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : null,
      events,
      comments,
      ended: Promise.resolve(),
      waitFor: () => Promise.reject(new Error("not a stream")),
      waitForComment: () => Promise.reject(new Error("not a stream")),
      close: () => {},
    };
  }

  const dispatch = (block: string) => {
    let id: string | null = null;
    let name = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        const comment = line.slice(1).trim();
        comments.push(comment);
        for (const waiter of commentWaiters.filter((entry) => entry.match(comment))) {
          commentWaiters.splice(commentWaiters.indexOf(waiter), 1);
          waiter.resolve(comment);
        }
      } else if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) return;
    const event = { id, event: name, data: JSON.parse(data.join("\n")) as unknown };
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };

  const ended = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          dispatch(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // closed by the client
    } finally {
      for (const waiter of waiters.splice(0))
        waiter.reject(new Error(`the stream ended without the event; got ${events.map((event) => event.event).join(", ")}`));
      for (const waiter of commentWaiters.splice(0)) waiter.reject(new Error("the stream ended without the comment"));
    }
  })();
  let finished = false;
  void ended.then(() => (finished = true));

  return {
    status: response.status,
    headers: response.headers,
    body: null,
    events,
    comments,
    ended,
    waitFor(match) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      if (finished) return Promise.reject(new Error("the stream has ended"));
      return new Promise((resolve, reject) => waiters.push({ match, resolve, reject }));
    },
    waitForComment(match) {
      const found = comments.find(match);
      if (found !== undefined) return Promise.resolve(found);
      if (finished) return Promise.reject(new Error("the stream has ended"));
      return new Promise((resolve, reject) => commentWaiters.push({ match, resolve, reject }));
    },
    close: () => abort.abort(),
  };
}

/** The record events carry the generation id in `generation_id`, as every generation event does. */
export const ofGeneration = (generationId: string) => (event: SseEvent) =>
  (event.data as { generation_id?: string }).generation_id === generationId;

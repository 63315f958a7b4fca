import { isTerminal, WaitTimeoutError, type WaitOptions } from "./core.js";
import { AuthenticationError, PermissionDeniedError } from "./errors.js";
import { streamOperations } from "./generated/operations.js";
import { Generations as GeneratedGenerations, type ListOptions } from "./generated/resources.js";
import type * as types from "./generated/types.js";
import { sleep } from "./transport.js";

/** The events after which a generation's own stream ends (from the document). */
const TERMINAL_EVENTS: ReadonlySet<string> = new Set(streamOperations.streamGenerationEvents.endsAfter);

/** `listAll`'s options: the page size per request (100 by default) and where to start (after this id). */
export type ListAllOptions = Omit<ListOptions, "offset">;

/** The generated `generations` resource and the helpers written by hand: `wait` and `listAll`. */
export class Generations extends GeneratedGenerations {
  /**
   * Every generation of the account, newest first (`for await (const generation of …)`), read page
   * after page by cursor (`starting_after`): none is repeated or skipped while new ones are created
   * meanwhile (those are newer than the first page and not listed), unlike paging by `offset`.
   */
  async *listAll(options: ListAllOptions = {}): AsyncGenerator<types.GenerationRecord> {
    const { limit = 100, ...rest } = options;
    let startingAfter = options.startingAfter;
    for (;;) {
      const page = await this.list({ ...rest, limit, startingAfter });
      yield* page.generations;
      if (!page.has_more || !page.next_cursor) return;
      startingAfter = page.next_cursor;
    }
  }

  /** The record once terminal: read from the stream, or by polling when the stream is not available. */
  readonly wait = async (id: string, options: WaitOptions = {}): Promise<types.GenerationRecord> => {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new WaitTimeoutError(id, last, timeoutMs)), timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let last: types.GenerationRecord | null = null;
    try {
      try {
        for await (const event of this.stream(id, { signal: controller.signal })) {
          const data = event.data as types.GenerationRecord;
          if (data && typeof data === "object" && "generation_status" in data) last = data;
          if (TERMINAL_EVENTS.has(event.event) || (last && isTerminal(last))) return last ?? (data as types.GenerationRecord);
        }
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        // A key that may not read is refused by polling too; anything else (no stream route on this
        // server, a proxy that buffers streams) falls back to polling.
        if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) throw error;
      }
      for (let poll = 0; ; poll++) {
        last = await this.get(id, { signal: controller.signal });
        if (isTerminal(last)) return last;
        const interval = Math.min(5_000, (options.pollIntervalMs ?? 1_000) * 1.5 ** Math.min(poll, 4));
        if (Date.now() + interval > deadline) throw new WaitTimeoutError(id, last, timeoutMs);
        await sleep(interval, controller.signal);
      }
    } catch (error) {
      throw controller.signal.aborted && !options.signal?.aborted ? new WaitTimeoutError(id, last, timeoutMs) : error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  };
}

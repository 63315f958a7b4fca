import "server-only";
import { asyncCommitPool } from "../../base/db";
import { env } from "../../base/env";
import { log } from "../../base/log";
import { onShutdown } from "../../base/shutdown";
import { insertRequestLogs, type RequestLogRow } from "../../request-logs/insert-request-logs";

// Request-log rows and last_used_at times are written in batches: one statement per batch
// instead of two round trips per request. A batch leaves at most REQUEST_LOG_FLUSH_MS (default
// 50 ms) after its first entry, at once when it reaches FLUSH_AT entries, and on shutdown
// (SIGTERM/SIGINT). The buffer is bounded: when it holds MAX_BUFFERED entries, the next request
// waits for the flush under way (back-pressure, nothing dropped). Only when the database keeps
// failing are the oldest entries dropped past that bound, with an error line counting them.
// A crash (SIGKILL, power loss) loses what was buffered: at most the last flush interval.

export const MAX_BUFFERED = 5_000;
const FLUSH_AT = 500;
const MAX_ATTEMPTS = 3;

type Buffer = {
  entries: RequestLogRow[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  failures: number;
  dropped: number;
};

const globalBuffer = globalThis as unknown as { darkroomRequestLogBuffer?: Buffer };

function buffer(): Buffer {
  if (!globalBuffer.darkroomRequestLogBuffer) {
    globalBuffer.darkroomRequestLogBuffer = { entries: [], timer: null, flushing: null, failures: 0, dropped: 0 };
    onShutdown("request-log", flushRequestLogs);
  }
  return globalBuffer.darkroomRequestLogBuffer;
}

function flushIntervalMs() {
  return env().REQUEST_LOG_FLUSH_MS;
}

/** Queues one row; resolves at once unless the buffer is full, then after room is made. */
export async function bufferRequestLog(row: RequestLogRow): Promise<void> {
  const state = buffer();
  while (state.entries.length >= MAX_BUFFERED && state.failures === 0) await flushRequestLogs();
  if (state.entries.length >= MAX_BUFFERED) {
    // The database has been failing: keep the newest, count what goes.
    state.entries.shift();
    state.dropped += 1;
  }
  state.entries.push(row);
  if (state.entries.length >= FLUSH_AT) void flushRequestLogs();
  else if (!state.timer) {
    state.timer = setTimeout(() => {
      state.timer = null;
      void flushRequestLogs();
    }, flushIntervalMs());
    state.timer.unref();
  }
}

/** Writes everything buffered now (waits for a flush already under way first). */
export async function flushRequestLogs(): Promise<void> {
  const state = buffer();
  while (state.flushing) await state.flushing;
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  if (state.entries.length === 0) return;
  const batch = state.entries.splice(0, state.entries.length);
  state.flushing = writeBatch(batch)
    .then(() => {
      state.failures = 0;
      if (state.dropped > 0) log.error("request log entries dropped while the database failed", { dropped: state.dropped });
      state.dropped = 0;
    })
    .catch((error) => {
      state.failures += 1;
      if (state.failures < MAX_ATTEMPTS) {
        // Back to the front, to be retried with the next flush (within the bound).
        const cut = Math.max(0, batch.length + state.entries.length - MAX_BUFFERED);
        state.dropped += cut;
        state.entries.unshift(...batch.slice(cut));
        if (!state.timer) {
          state.timer = setTimeout(() => {
            state.timer = null;
            void flushRequestLogs();
          }, flushIntervalMs());
          state.timer.unref();
        }
      } else {
        state.failures = 0;
        log.error("request log batch lost", { entries: batch.length, error: String(error) });
      }
      log.warn("request log batch failed", { entries: batch.length, attempt: state.failures, error: String(error) });
    })
    .finally(() => {
      state.flushing = null;
    });
  await state.flushing;
}

// One statement per batch (server/request-logs/insert-request-logs.ts). Its commit does not wait
// for the disk (asyncCommitPool): the buffer is already the loss window, and a PostgreSQL crash adds < 1 s.
async function writeBatch(batch: RequestLogRow[]): Promise<void> {
  await insertRequestLogs(asyncCommitPool(), batch);
}

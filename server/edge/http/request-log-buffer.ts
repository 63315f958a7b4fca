import "server-only";
import { randomUUID } from "node:crypto";
import { asyncCommitPool } from "../../base/db";
import { env, type RegionName } from "../../base/env";
import { log } from "../../base/log";
import { onShutdown } from "../../base/shutdown";

// Request-log rows and last_used_at times are written in batches: one statement per batch
// instead of two round trips per request. A batch leaves at most REQUEST_LOG_FLUSH_MS (default
// 50 ms) after its first entry, at once when it reaches FLUSH_AT entries, and on shutdown
// (SIGTERM/SIGINT). The buffer is bounded: when it holds MAX_BUFFERED entries, the next request
// waits for the flush under way (back-pressure, nothing dropped). Only when the database keeps
// failing are the oldest entries dropped past that bound, with an error line counting them.
// A crash (SIGKILL, power loss) loses what was buffered: at most the last flush interval.

export type RequestLogRow = {
  accountId: string;
  apiKeyId: string;
  requestId: string;
  keyName: string;
  keyPrefix: string;
  keyStatus: string;
  method: string;
  endpoint: string;
  query: Record<string, string>;
  statusCode: number;
  errorCode: string | null;
  idempotentReplay: boolean;
  ipHash: string;
  userAgent: string | null;
  latencyMs: number;
  /** Where the request was served (usage counts per region). */
  region: RegionName;
  createdAt: Date;
  /** Moves the key's last_used_at to createdAt. */
  touchLastUsed: boolean;
};

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

/**
 * PostgreSQL's text and jsonb cannot hold U+0000, which a query string can carry (`?q=%00`):
 * one such row made the whole batch fail, so the requests beside it were lost too. It is kept as
 * U+FFFD, the replacement character.
 */
function storable<T>(value: T): T {
  if (typeof value === "string") return value.replaceAll("\u0000", "\uFFFD") as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === "object" && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([name, entry]) => [storable(name), storable(entry)])) as T;
  return value;
}

async function writeBatch(batch: RequestLogRow[]): Promise<void> {
  const touched = new Map<string, Date>();
  for (const row of batch) {
    if (!row.touchLastUsed) continue;
    const seen = touched.get(row.apiKeyId);
    if (!seen || seen < row.createdAt) touched.set(row.apiKeyId, row.createdAt);
  }
  const column = <T>(pick: (row: RequestLogRow) => T) => batch.map((row) => storable(pick(row)));
  // One statement: the rows (of keys that still exist: a key deleted since its request took
  // its logs with it), and last_used_at moved forward only. Its commit does not wait for the disk
  // (asyncCommitPool): the buffer is already the loss window, and a PostgreSQL crash adds < 1 s.
  await asyncCommitPool().query(
    `WITH logged AS (
       INSERT INTO request_log (id, account_id, api_key_id, request_id, key_name, key_prefix, key_status, method, endpoint, query,
                                status_code, error_code, idempotent_replay, ip_hash, user_agent, latency_ms, created_at, region)
       SELECT r.id, r.account_id, r.api_key_id, r.request_id, r.key_name, r.key_prefix, r.key_status, r.method, r.endpoint, r.query::jsonb,
              r.status_code, r.error_code, r.idempotent_replay, r.ip_hash, r.user_agent, r.latency_ms, r.created_at, r.region
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                     $11::int[], $12::text[], $13::bool[], $14::text[], $15::text[], $16::int[], $17::timestamptz[], $20::"Region"[])
              AS r(id, account_id, api_key_id, request_id, key_name, key_prefix, key_status, method, endpoint, query,
                   status_code, error_code, idempotent_replay, ip_hash, user_agent, latency_ms, created_at, region)
        WHERE EXISTS (SELECT 1 FROM api_key k WHERE k.id = r.api_key_id)
       RETURNING 1
     )
     UPDATE api_key SET last_used_at = t.used_at
       FROM unnest($18::uuid[], $19::timestamptz[]) AS t(id, used_at)
      WHERE api_key.id = t.id AND (api_key.last_used_at IS NULL OR api_key.last_used_at < t.used_at)`,
    [
      column(() => randomUUID()),
      column((row) => row.accountId),
      column((row) => row.apiKeyId),
      column((row) => row.requestId),
      column((row) => row.keyName),
      column((row) => row.keyPrefix),
      column((row) => row.keyStatus),
      column((row) => row.method),
      column((row) => row.endpoint),
      column((row) => JSON.stringify(storable(row.query))),
      column((row) => row.statusCode),
      column((row) => row.errorCode),
      column((row) => row.idempotentReplay),
      column((row) => row.ipHash),
      column((row) => row.userAgent),
      column((row) => row.latencyMs),
      column((row) => row.createdAt.toISOString()),
      [...touched.keys()],
      [...touched.values()].map((time) => time.toISOString()),
      column((row) => row.region),
    ],
  );
}

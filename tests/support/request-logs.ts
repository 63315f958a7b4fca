import { randomUUID } from "node:crypto";
import { db } from "@/server/db";
import { hashClientIp } from "@/server/net/client-ip-hash";

// Request log rows as the /v1 checkpoint writes them, inserted directly so the dashboard's views
// can be tested with exact times, statuses and error codes.

export type LoggedRequest = {
  statusCode?: number;
  errorCode?: string | null;
  endpoint?: string;
  method?: string;
  createdAt?: Date;
  keyStatus?: string;
  idempotentReplay?: boolean;
};

export async function insertRequestLog(accountId: string, key: { id: string; name: string; prefix: string }, entry: LoggedRequest = {}) {
  const row = await db.requestLog.create({
    data: {
      accountId,
      apiKeyId: key.id,
      requestId: `req_${randomUUID()}`,
      keyName: key.name,
      keyPrefix: key.prefix,
      keyStatus: entry.keyStatus ?? "active",
      method: entry.method ?? "GET",
      endpoint: entry.endpoint ?? "/v1/status",
      query: { days: "7", api_key: "[redacted]" },
      statusCode: entry.statusCode ?? 200,
      errorCode: entry.errorCode ?? null,
      idempotentReplay: entry.idempotentReplay ?? false,
      ipHash: hashClientIp("198.51.100.7"),
      userAgent: "darkroom-tests/1.0",
      latencyMs: 12,
      createdAt: entry.createdAt ?? new Date(),
    },
  });
  return row.id;
}

/** The app writes request-log rows in batches, at most REQUEST_LOG_FLUSH_MS (50 ms) after the request. */
export const LOG_FLUSH_WAIT_MS = 2_000;

/** Polls until `read` gives a value (a row, or a list with `count` rows); fails after LOG_FLUSH_WAIT_MS. */
export async function whenLogged<T>(read: () => Promise<T | null>, count = 1): Promise<T> {
  const deadline = Date.now() + LOG_FLUSH_WAIT_MS;
  for (;;) {
    const value = await read();
    const ready = Array.isArray(value) ? value.length >= count : value !== null;
    if (ready) return value as T;
    if (Date.now() > deadline) throw new Error(`request log not written within ${LOG_FLUSH_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Long enough for any batch to have been written: for asserting that a row was NOT logged. */
export function afterLogFlush() {
  return new Promise((resolve) => setTimeout(resolve, 500));
}

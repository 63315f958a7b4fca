import { randomUUID } from "node:crypto";
import { db, sqlPool } from "@/server/base/db";
import { hashClientIp } from "@/server/base/net/client-ip-hash";
import { insertRequestLogs, type RequestLogRow } from "@/server/request-logs/insert-request-logs";
import { api, requestIdOf } from "./http";
import { until } from "./until";

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

/** A row as the writer takes it, with defaults for what a case leaves out (no key, no region, now). */
export function requestLogRow(row: Partial<RequestLogRow> & { accountId: string }): RequestLogRow {
  return {
    apiKeyId: null,
    requestId: randomUUID(),
    keyName: "k",
    keyPrefix: "dkr_abcd",
    keyStatus: "active",
    method: "GET",
    endpoint: "/v1/status",
    query: {},
    statusCode: 200,
    errorCode: null,
    idempotentReplay: false,
    ipHash: "h",
    userAgent: null,
    latencyMs: 0,
    region: null,
    createdAt: new Date(),
    touchLastUsed: false,
    ...row,
  };
}

/** Rows written by the log's own writer (server/request-logs/insert-request-logs.ts); returns their request_log_ids. */
export async function seedRequestLogs(rows: Array<Partial<RequestLogRow> & { accountId: string }>): Promise<string[]> {
  const ids = await insertRequestLogs(sqlPool(), rows.map(requestLogRow));
  return ids.map((id, index) => {
    if (id === null) throw new Error(`request log row ${index} was not written: its key or account is gone`);
    return id;
  });
}

export async function insertRequestLog(accountId: string, key: { id: string; name: string; prefix: string }, entry: LoggedRequest = {}) {
  const [id] = await seedRequestLogs([
    {
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
  ]);
  return id!;
}

/** The app writes request-log rows in batches after the request: polls until `read` gives a value (a row, or a list with `count` rows). */
export async function whenLogged<T>(read: () => Promise<T | null>, count = 1): Promise<T> {
  const ready = await until(async () => {
    const value = await read();
    return (Array.isArray(value) ? value.length >= count : value !== null) && { value };
  }, `${count} request-log row(s) written`);
  return ready.value as T;
}

/**
 * For asserting that a row was NOT logged: a later request's row is written (batches go out in the
 * order the requests were logged), so an earlier row would have been too.
 */
export async function afterLaterRequestLogged(key: string) {
  const reply = await api("/v1/status", { key });
  await whenLogged(() => db.requestLog.findFirst({ where: { requestId: requestIdOf(reply) } }));
}

import "server-only";
import type { RequestLog } from "../base/generated/prisma/client";

// One logged /v1 request as the dashboard shows it: the spec's request log entry. The key's name
// and prefix are as they were at request time; the client IP only ever as its SHA-256.

export function toRequestLogEntry(row: RequestLog) {
  return {
    request_log_id: row.id,
    request_id: row.requestId,
    apikey_id: row.apiKeyId,
    key_name: row.keyName,
    key_prefix: row.keyPrefix,
    /** active, expired, rotated or revoked: the key's state when the request came in. */
    key_state: row.keyStatus,
    method: row.method,
    endpoint: row.endpoint,
    query: isStringRecord(row.query) ? row.query : {},
    status_code: row.statusCode,
    error_code: row.errorCode,
    idempotent_replay: row.idempotentReplay,
    client_ip_hash: row.ipHash,
    user_agent: row.userAgent,
    latency_ms: row.latencyMs,
    created_at: row.createdAt.toISOString(),
  };
}

export type RequestLogEntry = ReturnType<typeof toRequestLogEntry>;

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === "string")
  );
}

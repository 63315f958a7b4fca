import "server-only";
import { requestLogId } from "./request-log-id";

// One logged /v1 request as the dashboard shows it: the spec's request log entry. The key's name
// and prefix are as they were at request time; the client IP only ever as its HMAC.

/** A row of request_log_row with its small tables' text, as list-request-logs.ts reads it. */
export type RequestLogRecord = {
  created_at: Date;
  id: number;
  request_id: string;
  request_ref: string;
  api_key_id: string | null;
  key_name: string;
  key_prefix: string;
  key_state: string;
  method: string;
  endpoint: string;
  query: string;
  status_code: number;
  error_code: number;
  idempotent_replay: boolean;
  ip_hash: string;
  user_agent: string | null;
  latency_ms: number;
};

export function toRequestLogEntry(row: RequestLogRecord) {
  return {
    request_log_id: requestLogId({ createdAt: row.created_at, id: row.id }),
    request_id: row.request_ref === "" ? row.request_id : row.request_ref,
    apikey_id: row.api_key_id,
    key_name: row.key_name,
    key_prefix: row.key_prefix,
    /** active, expired, rotated or revoked: the key's state when the request came in. */
    key_state: row.key_state,
    method: row.method,
    endpoint: row.endpoint,
    query: parseQuery(row.query),
    status_code: row.status_code,
    error_code: row.error_code === 0 ? null : `ERR${String(row.error_code).padStart(4, "0")}`,
    idempotent_replay: row.idempotent_replay,
    client_ip_hash: row.ip_hash,
    user_agent: row.user_agent,
    latency_ms: row.latency_ms,
    created_at: row.created_at.toISOString(),
  };
}

export type RequestLogEntry = ReturnType<typeof toRequestLogEntry>;

function parseQuery(text: string): Record<string, string> {
  if (text === "") return {};
  const value: unknown = JSON.parse(text);
  return isStringRecord(value) ? value : {};
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === "string")
  );
}

import { isDatabaseUnreachable } from "./database-unreachable";

// The one table of error codes. REST and tRPC both turn anything thrown into
// one of these through toApiError.

export const errorTable = {
  ERR1001: { type: "invalid_request", status: 400, retryable: false },
  ERR1002: { type: "authentication_failed", status: 401, retryable: false },
  ERR1003: { type: "insufficient_scope", status: 403, retryable: false },
  ERR1004: { type: "insufficient_credits", status: 402, retryable: false },
  ERR1005: { type: "rate_limit_exceeded", status: 429, retryable: true },
  ERR1006: { type: "not_found", status: 404, retryable: false },
  ERR1007: { type: "ip_not_allowed", status: 403, retryable: false },
  ERR1008: { type: "method_not_allowed", status: 405, retryable: false },
  ERR1009: { type: "concurrency_limit_exceeded", status: 429, retryable: true },
  ERR1010: { type: "generation_not_cancelable", status: 409, retryable: false },
  ERR1011: { type: "payload_too_large", status: 413, retryable: false },
  ERR1012: { type: "model_not_found", status: 404, retryable: false },
  ERR1013: { type: "range_not_satisfiable", status: 416, retryable: false },
  ERR1014: { type: "spend_limit_exceeded", status: 402, retryable: false },
  ERR1015: { type: "unsupported_media_type", status: 415, retryable: false },
  ERR2014: { type: "invalid_idempotency_key", status: 400, retryable: false },
  ERR2015: { type: "idempotency_key_conflict", status: 409, retryable: false },
  ERR2016: { type: "idempotency_request_in_progress", status: 409, retryable: true },
  ERR3001: { type: "service_paused", status: 503, retryable: true },
  ERR4001: { type: "provider_timeout", status: 504, retryable: true },
  ERR4002: { type: "provider_unavailable", status: 503, retryable: true },
  ERR4003: { type: "upload_failed", status: 502, retryable: true },
  ERR4004: { type: "all_providers_failed", status: 502, retryable: true },
  ERR4005: { type: "provider_rejected", status: 422, retryable: false },
  // A generation's error code only (its Cancel-After passed): canceled, refunded, never charged.
  ERR4006: { type: "deadline_exceeded", status: 504, retryable: false },
  ERR5000: { type: "internal_error", status: 500, retryable: true },
} as const satisfies Record<string, { type: string; status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof errorTable;

export const defaultMessages: Record<ErrorCode, string> = {
  ERR1001: "The request is invalid.",
  ERR1002: "The API key is missing, invalid, expired, revoked or belongs to another region.",
  ERR1003: "The API key lacks the scope this route requires.",
  ERR1004: "The credit balance is too low for the estimated cost.",
  ERR1005: "Rate limit exceeded. Retry after the time given in Retry-After.",
  ERR1006: "The resource was not found.",
  ERR1007: "The client address is not in the API key's IP allowlist.",
  ERR1008: "The method is not allowed on this route.",
  ERR1009: "Too many generations in flight for this media kind.",
  ERR1010: "The generation can no longer be canceled.",
  ERR1011: "The request body is too large.",
  ERR1012: "The model was not found.",
  ERR1013: "The requested byte range is outside the file.",
  ERR1014: "The create would take spend past the API key's or the account's spend limit.",
  ERR1015: "The request body must be sent as Content-Type: application/json.",
  ERR2014: "The Idempotency-Key header must match [A-Za-z0-9_\\-:.]{1,255}.",
  ERR2015: "The Idempotency-Key was already used with a different request body.",
  ERR2016: "A request with this Idempotency-Key is still being processed.",
  ERR3001: "The service is paused. Retry later.",
  ERR4001: "The inference provider timed out.",
  ERR4002: "The inference provider is unavailable.",
  ERR4003: "Uploading the output failed.",
  ERR4004: "Every provider in the chain failed.",
  ERR4005: "The provider rejected the request.",
  ERR4006: "The generation did not finish before its Cancel-After deadline.",
  ERR5000: "An internal error occurred.",
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  /** Extra response headers, such as Retry-After or Allow. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message ?? defaultMessages[code]);
    this.name = "ApiError";
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return errorTable[this.code].status;
  }

  toBody() {
    const entry = errorTable[this.code];
    return {
      code: this.code,
      type: entry.type,
      message: this.message,
      retryable: entry.retryable,
      details: this.details,
    };
  }
}

/** Seconds a client is asked to wait while the database is unreachable (an outage is seconds to minutes). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database unreachable is ERR3001 `service_paused` (503, retryable) with Retry-After: the
 * table's one retryable code for "the service cannot take requests now, retry later", which
 * clients and SDKs already retry; ERR4002 is about inference providers and ERR5000 says a fault
 * that retrying may not fix. `details.cause` tells it from an operator's pause (`{reason, paused_at}`).
 */
export function databaseUnreachable(): ApiError {
  return new ApiError(
    "ERR3001",
    "The database is unreachable. Retry later.",
    { cause: "database_unreachable" },
    { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}

/** Turns anything thrown into an ApiError; unknown errors become a redacted ERR5000. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnreachable(error)) return databaseUnreachable();
  return new ApiError("ERR5000");
}

/** One field error per entry, for ERR1001 details. */
export type FieldErrors = Array<{ field: string; message: string }>;

export function invalidRequest(message: string, fields: FieldErrors = []) {
  return new ApiError("ERR1001", message, fields.length ? { fields } : {});
}

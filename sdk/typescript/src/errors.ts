// One error class for everything the API (or the network) refuses, with a subclass per family so
// callers can `catch (error) { if (error instanceof RateLimitError) … }`. The family comes from the
// error code (the server's one error table), else from the HTTP status.

export type ErrorInit = {
  message: string;
  code: string;
  type: string;
  status: number;
  retryable: boolean;
  requestId: string | null;
  details?: Record<string, unknown>;
  headers?: Headers;
  cause?: unknown;
};

export class DarkroomError extends Error {
  /** `ERR1004`, …; `connection_error` when no answer arrived, `http_<status>` for an answer outside the envelope. */
  readonly code: string;
  /** The machine-readable type, e.g. `insufficient_credits`. */
  readonly type: string;
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** Whether the same request may succeed later (the client already retried it up to `maxRetries`). */
  readonly retryable: boolean;
  /** The answer's `request_id` (also its `X-Request-Id`): quote it when reporting a problem. */
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;
  /** The answer's headers (Retry-After, X-RateLimit-*), when an answer arrived. */
  readonly headers: Headers | undefined;

  constructor(init: ErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.type = init.type;
    this.status = init.status;
    this.retryable = init.retryable;
    this.requestId = init.requestId;
    this.details = init.details ?? {};
    this.headers = init.headers;
  }
}

/** ERR1002: the key is missing, invalid, expired, revoked or from another region. */
export class AuthenticationError extends DarkroomError {}
/** ERR1003 (scope), ERR1007 (IP allowlist). */
export class PermissionError extends DarkroomError {}
/** ERR1006 (generation, route), ERR1012 (model). */
export class NotFoundError extends DarkroomError {}
/** ERR1005 (per-minute limit), ERR1009 (concurrency cap). `retryAfterSeconds` from Retry-After. */
export class RateLimitError extends DarkroomError {
  get retryAfterSeconds(): number | null {
    const value = Number(this.headers?.get("retry-after"));
    return Number.isFinite(value) && value >= 0 ? value : null;
  }
}
/** ERR1004: the balance is too low for the estimated cost. */
export class InsufficientCreditsError extends DarkroomError {}
/** ERR1014: a key's or the account's spend limit for the period would be passed (`details`: scope, limit, used, requested, resets_at). */
export class SpendLimitError extends DarkroomError {}
/** ERR1001 and the other refusals of the request itself (ERR1008, ERR1011, ERR1015, ERR2014). */
export class ValidationError extends DarkroomError {}
/** ERR1010 (not cancelable), ERR2015 (Idempotency-Key reused with another body), ERR2016 (still running). */
export class ConflictError extends DarkroomError {}
/** ERR4xxx: the inference providers failed. */
export class ProviderError extends DarkroomError {}
/** ERR5000, ERR3001 (paused) and answers outside the envelope with a 5xx status. */
export class ServerError extends DarkroomError {}
/** No answer: the connection failed, was dropped, or `timeoutMs` passed. Retryable. */
export class ConnectionError extends DarkroomError {}
/** `webhooks.verify` refused the delivery: `reason` says why. */
export class WebhookVerificationError extends Error {
  readonly reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch";
  constructor(reason: WebhookVerificationError["reason"]) {
    super(`Webhook signature refused: ${reason}`);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

type ErrorClass = new (init: ErrorInit) => DarkroomError;

const byCode: Record<string, ErrorClass> = {
  ERR1001: ValidationError,
  ERR1002: AuthenticationError,
  ERR1003: PermissionError,
  ERR1004: InsufficientCreditsError,
  ERR1005: RateLimitError,
  ERR1006: NotFoundError,
  ERR1007: PermissionError,
  ERR1008: ValidationError,
  ERR1009: RateLimitError,
  ERR1010: ConflictError,
  ERR1011: ValidationError,
  ERR1012: NotFoundError,
  ERR1013: ValidationError,
  ERR1014: SpendLimitError,
  ERR1015: ValidationError,
  ERR2014: ValidationError,
  ERR2015: ConflictError,
  ERR2016: ConflictError,
  ERR3001: ServerError,
  ERR5000: ServerError,
};

function byStatus(status: number): ErrorClass {
  if (status === 401) return AuthenticationError;
  if (status === 402) return InsufficientCreditsError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500 || status < 400) return ServerError;
  return ValidationError;
}

/** The subclass for an error code (ERR4xxx are provider errors), else for the HTTP status. */
export function errorClassFor(code: string, status: number): ErrorClass {
  return byCode[code] ?? (/^ERR4\d{3}$/.test(code) ? ProviderError : byStatus(status));
}

export function makeError(init: ErrorInit): DarkroomError {
  const ErrorType = errorClassFor(init.code, init.status);
  return new ErrorType(init);
}

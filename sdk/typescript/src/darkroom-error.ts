// The base of every error the client throws for the API (or the network). The families below it
// are generated from the error table (generated/errors.ts); errors.ts picks one for an answer.

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

  /** Seconds the answer's Retry-After asks to wait (429s, paused service), or null. */
  get retryAfterSeconds(): number | null {
    const value = Number(this.headers?.get("retry-after") ?? Number.NaN);
    return Number.isFinite(value) && value >= 0 ? value : null;
  }
}

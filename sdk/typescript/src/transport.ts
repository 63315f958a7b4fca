import { DarkroomConnectionError, DarkroomError, makeError } from "./errors.js";
import type { OperationSpec } from "./generated/operations.js";

// The transport: one fetch per attempt, the envelope unwrapped, errors mapped to their family,
// retryable failures retried with exponential backoff and jitter (Retry-After honoured) at most
// `maxRetries` times. Creates always carry an Idempotency-Key, so a retry never starts a second
// generation.

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export type TransportOptions = {
  apiKey: string;
  /** The API's origin, without `/v1`. */
  origin: string;
  maxRetries: number;
  timeoutMs: number;
  fetch: FetchLike;
  userAgent: string;
};

/** What every result carries besides its data (as the non-enumerable `lastResponse`). */
export type ResponseMeta = {
  /** The answer's `request_id` (also `X-Request-Id`). */
  requestId: string | null;
  status: number;
  headers: Headers;
  /** `true` when the answer is the stored one of an earlier request with the same Idempotency-Key. */
  idempotencyReplayed: boolean;
  /** The Idempotency-Key sent with a create (the caller's, or the one the client made). */
  idempotencyKey?: string;
  /** Attempts made: 1 when the first answer was kept. */
  attempts: number;
};

export type WithResponse<T> = T & { readonly lastResponse: ResponseMeta };

/** Per call: an AbortSignal, and overrides of the client's timeout and retries. */
export type RequestOptions = { signal?: AbortSignal; timeoutMs?: number; maxRetries?: number };

export type CallInput = RequestOptions & {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
};

export type Envelope =
  | {
      status: "success";
      request_id: string;
      data: unknown;
      total?: number;
      limit?: number;
      offset?: number;
      has_more?: boolean;
      next_cursor?: string | null;
    }
  | { status: "error"; request_id: string; error: Record<string, unknown> };

const MAX_RETRY_AFTER_SECONDS = 60;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** Attaches `lastResponse` without making it part of the data (JSON.stringify leaves it out). */
export function withResponse<T extends object>(value: T, meta: ResponseMeta): WithResponse<T> {
  Object.defineProperty(value, "lastResponse", { value: meta, enumerable: false });
  return value as WithResponse<T>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** 0.5 s, 1 s, 2 s, … up to 8 s, each scaled by a random 50–100 % (jitter). */
export function backoffMs(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const raw = headers?.get("retry-after");
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** How long to wait before retrying `error`, or null when it must not be retried. */
export function retryDelayMs(error: unknown, attempt: number): number | null {
  if (!(error instanceof DarkroomError) || !error.retryable) return null;
  const after = retryAfterMs(error.headers);
  if (after !== null) return after > MAX_RETRY_AFTER_SECONDS * 1000 ? null : after + Math.random() * 250;
  return backoffMs(attempt);
}

export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new TypeError(`Missing path parameter ${name}`);
    // A model identifier is two path segments: its slash is sent as is.
    return value.split("/").map(encodeURIComponent).join("/");
  });
}

/** A timeout and the caller's signal in one; `done()` clears the timer. */
export function attemptSignal(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => ((timedOut = true), controller.abort(new Error(`timed out after ${timeoutMs} ms`))), timeoutMs)
      : null;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    /** Ends the request (and a stream's body) early. */
    abort: () => controller.abort(new Error("closed by the client")),
    done() {
      if (timer) clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

export class Transport {
  constructor(readonly options: TransportOptions) {}

  url(path: string, query: CallInput["query"] = {}): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) search.set(name, String(value));
    const text = search.toString();
    return `${this.options.origin}${path}${text ? `?${text}` : ""}`;
  }

  /**
   * One request that never takes the key to another origin: fetch runs with `redirect: "manual"`,
   * a redirect within the origin (same scheme, host and port) is followed here, and one anywhere
   * else is answered as it came (then refused by errorFromAnswer).
   */
  async fetch(url: string, init: RequestInit): Promise<Response> {
    let current = init;
    for (let hops = 0; ; hops++) {
      const response = await this.options.fetch(url, { ...current, redirect: "manual" });
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
      if (!location || hops === MAX_REDIRECTS) return response;
      const next = new URL(location, url);
      if (next.origin !== new URL(url).origin) return response;
      await response.body?.cancel();
      // As fetch does: 303, and 301/302 after a POST, go on as a GET without the body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && current.method === "POST"))
        current = { ...current, method: "GET", body: undefined };
      url = next.href;
    }
  }

  headers(extra: Record<string, string | undefined> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: "application/json",
      "user-agent": this.options.userAgent,
    };
    for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name.toLowerCase()] = value;
    return headers;
  }

  /** One operation of the method table: its success envelope and the answer's metadata. */
  async call(
    operation: OperationSpec,
    input: CallInput = {},
  ): Promise<{ envelope: Extract<Envelope, { status: "success" }>; meta: ResponseMeta }> {
    const url = this.url(fillPath(operation.path, input.params), input.query);
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const headers = this.headers({ ...(body === undefined ? {} : { "content-type": "application/json" }), ...input.headers });
    const maxRetries = input.maxRetries ?? this.options.maxRetries;
    for (let attempt = 0; ; attempt++) {
      try {
        const { envelope, response } = await this.once(operation.method, url, headers, body, input);
        const meta: ResponseMeta = {
          requestId: envelope.request_id ?? response.headers.get("x-request-id"),
          status: response.status,
          headers: response.headers,
          idempotencyReplayed: response.headers.get("idempotency-replayed") === "true",
          ...(headers["idempotency-key"] ? { idempotencyKey: headers["idempotency-key"] } : {}),
          attempts: attempt + 1,
        };
        return { envelope, meta };
      } catch (error) {
        if (input.signal?.aborted) throw input.signal.reason ?? error;
        const delay = attempt < maxRetries ? retryDelayMs(error, attempt) : null;
        if (delay === null) throw error;
        await sleep(delay, input.signal);
      }
    }
  }

  private async once(method: string, url: string, headers: Record<string, string>, body: string | undefined, input: CallInput) {
    const timing = attemptSignal(input.timeoutMs ?? this.options.timeoutMs, input.signal);
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, { method, headers, body, signal: timing.signal });
      text = await response.text();
    } catch (cause) {
      if (input.signal?.aborted) throw input.signal.reason ?? cause;
      const message = timing.timedOut()
        ? `No answer from ${method} ${url} within ${input.timeoutMs ?? this.options.timeoutMs} ms`
        : `The connection to ${url} failed: ${String((cause as Error)?.message ?? cause)}`;
      throw connectionError(message, cause);
    } finally {
      timing.done();
    }
    return { envelope: parseEnvelope(response, text), response };
  }
}

/** A failure to reach the API (retryable): what a dropped connection or a timeout is thrown as. */
export function connectionError(message: string, cause: unknown): DarkroomConnectionError {
  return new DarkroomConnectionError({
    message,
    code: "connection_error",
    type: "connection_error",
    status: 0,
    retryable: true,
    requestId: null,
    cause,
  });
}

/** The error of an answer that is not what was asked for (a refusal's envelope, or its status alone); reads the body. */
export async function errorOfAnswer(response: Response): Promise<DarkroomError> {
  const text = await response.text().catch(() => "");
  let envelope: Envelope | undefined;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    envelope = undefined;
  }
  return errorFromAnswer(response.status, response.headers, envelope);
}

/** The success envelope, or the error it carries (or what the status says when there is no envelope) thrown. */
export function parseEnvelope(response: Response, text: string): Extract<Envelope, { status: "success" }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const envelope = parsed as Envelope | undefined;
  if (response.ok && envelope?.status === "success") return envelope;
  throw errorFromAnswer(response.status, response.headers, envelope);
}

export function errorFromAnswer(status: number, headers: Headers, envelope: Envelope | undefined): DarkroomError {
  const requestId = envelope?.request_id ?? headers.get("x-request-id");
  if (envelope?.status === "error" && envelope.error && typeof envelope.error === "object") {
    const error = envelope.error;
    return makeError({
      message: String(error.message ?? `HTTP ${status}`),
      code: String(error.code ?? `http_${status}`),
      type: String(error.type ?? "unknown"),
      status,
      retryable: error.retryable === true,
      requestId,
      details: (error.details as Record<string, unknown>) ?? {},
      headers,
    });
  }
  const location = headers.get("location");
  // A browser's fetch shows a manual redirect as an opaque answer with status 0.
  if ((status >= 300 && status < 400) || status === 0) {
    return makeError({
      message: `HTTP ${status} redirect${location ? ` to ${location}` : ""} not followed: the API key is sent only to the base URL's origin. Set baseUrl to the address the API serves.`,
      code: `http_${status}`,
      type: "redirect_refused",
      status,
      retryable: false,
      requestId,
      details: location ? { location } : {},
      headers,
    });
  }
  // No envelope: a proxy or load balancer answered. Gateways' 429/502/503/504 may pass.
  const retryable = [408, 429, 502, 503, 504].includes(status);
  return makeError({
    message: `HTTP ${status} without a Darkroom envelope`,
    code: `http_${status}`,
    type: "http_error",
    status,
    retryable,
    requestId,
    headers,
  });
}

import "server-only";
import type { ProviderId } from "../catalog/providers";
import { ProviderAnswerTooLarge, providerHttp, type ProviderRequest } from "./provider-http";
import { ProviderError, type ProviderErrorCode } from "./types";

// One mapping from what a provider's HTTP API answered to our codes, shared by the
// Replicate, fal and OpenAI adapters: that mapping decides failover, so it must not drift apart.
//
//   timeout / abort, HTTP 408, 504                          → ERR4001 (fail over)
//   an answer past its byte cap                             → ERR4003 (fail over)
//   429, 5xx, 401/403 (our credentials), connection errors,
//   quota, capacity, "paused", maintenance                   → ERR4002 (fail over)
//   content policy / moderation / NSFW, or 400/413/422 input → ERR4005 (final)
//   a job that failed on the provider: NSFW/policy text → ERR4005, anything else → ERR4002

export const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000;

/** A provider's answer, read whole: JSON when it parses, else the text; `bytes` as received (downloads). */
export type ProviderResponse = { status: number; ok: boolean; headers: Headers; body: unknown; bytes?: Buffer };

/** A callback we refuse (bad signature, stale timestamp, unknown shape): answer it 401/400. */
export class CallbackRejectedError extends Error {
  readonly provider: ProviderId;

  constructor(provider: ProviderId, message: string) {
    super(message);
    this.name = "CallbackRejectedError";
    this.provider = provider;
  }
}

const contentPolicyText = /nsfw|content[\s_-]?policy|moderation|safety|flagged|sensitive|unsafe|inappropriate/i;
const unavailableText = /rate[\s_-]?limit|throttl|too many|quota|billing|credit|capacity|overload|paused|maintenance|unavailable/i;
const timeoutCodes = new Set(["ETIMEDOUT"]);
const MAX_MESSAGE_LENGTH = 300;

/** Sends one request under a deadline. Transport failures become ProviderErrors; HTTP statuses do not. */
export async function sendProviderRequest(
  provider: ProviderId,
  url: string,
  request: ProviderRequest,
  timeoutMs: number,
): Promise<ProviderResponse> {
  try {
    const answer = await providerHttp(url, request, timeoutMs);
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status <= 299,
      headers: answer.headers,
      body: parseBody(answer.text),
      bytes: answer.bytes,
    };
  } catch (error) {
    throw providerErrorFromException(provider, error, timeoutMs);
  }
}

/** A call that threw: the deadline passed, or the provider could not be reached. */
export function providerErrorFromException(provider: ProviderId, error: unknown, timeoutMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  // An answer past its cap is an output we cannot take (base64 pictures), as an oversized download is.
  if (error instanceof ProviderAnswerTooLarge)
    return new ProviderError(
      provider,
      "ERR4003",
      `${provider}: the answer is larger than the ${error.maxBytes} bytes allowed`,
      "too_large",
    );
  const name = error instanceof Error ? error.name : "";
  const code = transportCode(error);
  if (name === "TimeoutError" || name === "AbortError" || (code !== null && timeoutCodes.has(code))) {
    return new ProviderError(provider, "ERR4001", `${provider} did not answer within ${timeoutMs} ms`, `timeout ${timeoutMs}ms`);
  }
  return new ProviderError(provider, "ERR4002", `${provider} could not be reached (${code ?? "network error"})`, code ?? "network_error");
}

/** A non-2xx answer, mapped by status, the provider's error code and its message. */
export function providerErrorFromResponse(provider: ProviderId, response: ProviderResponse): ProviderError {
  const { code, message } = describeFailure(response.body, response.headers);
  const retryAfter = response.headers.get("retry-after");
  const detail = [`HTTP ${response.status}`, code, retryAfter ? `retry_after=${retryAfter}` : null].filter(Boolean).join(" ");
  // Our credential problems stay ours: their text can echo part of the key, and messages reach
  // the attempt record and the customer's provider_errors.
  const text =
    response.status === 401 || response.status === 403
      ? "the provider refused our credentials"
      : clip(message ?? `HTTP ${response.status}`);
  return new ProviderError(
    provider,
    classifyHttpFailure(response.status, `${code ?? ""} ${message ?? ""}`),
    `${provider}: ${text}`,
    detail,
  );
}

/** A job the provider ran and reported as failed (Replicate `failed`, fal `ERROR`). */
export function providerErrorFromJobFailure(provider: ProviderId, text: string, providerDetail: string): ProviderError {
  const code: ProviderErrorCode = contentPolicyText.test(text) ? "ERR4005" : "ERR4002";
  return new ProviderError(provider, code, `${provider}: ${clip(text || "the job failed")}`, providerDetail);
}

/** A job that failed on the provider and says so with an HTTP status (fal results and webhooks). */
export function providerErrorFromJobResponse(provider: ProviderId, response: ProviderResponse): ProviderError {
  const error = providerErrorFromResponse(provider, response);
  const { code, message } = describeFailure(response.body, response.headers);
  if (error.code !== "ERR4005" && contentPolicyText.test(`${code ?? ""} ${message ?? ""}`)) {
    return new ProviderError(provider, "ERR4005", error.message, error.providerDetail);
  }
  return error;
}

export function classifyHttpFailure(status: number, text: string): ProviderErrorCode {
  if (status === 408 || status === 504) return "ERR4001";
  if (status === 429 || status >= 500 || status === 401 || status === 403) return "ERR4002";
  if (contentPolicyText.test(text)) return "ERR4005";
  if (unavailableText.test(text)) return "ERR4002";
  if (status === 400 || status === 413 || status === 422) return "ERR4005";
  return "ERR4002";
}

/**
 * The code and message out of the error bodies the three providers send:
 * OpenAI `{error: {message, type, code}}`, Replicate problem details `{title, detail, status}`,
 * fal `{detail: string, error_type}` or `{detail: [{loc, msg, type}]}` (+ X-Fal-Error-Type).
 */
export function describeFailure(body: unknown, headers?: Headers): { code: string | null; message: string | null } {
  const headerCode = headers?.get("x-fal-error-type") ?? null;
  if (typeof body === "string") return { code: headerCode, message: body.trim() || null };
  if (!isRecord(body)) return { code: headerCode, message: null };

  if (isRecord(body.error)) {
    const error = body.error;
    return { code: stringOrNull(error.code) ?? stringOrNull(error.type) ?? headerCode, message: stringOrNull(error.message) };
  }
  if (Array.isArray(body.detail)) {
    const items = body.detail.filter(isRecord);
    const messages = items.map((item) => stringOrNull(item.msg)).filter((msg): msg is string => msg !== null);
    const type = items.map((item) => stringOrNull(item.type)).find((value) => value !== null) ?? null;
    return { code: type ?? stringOrNull(body.error_type) ?? headerCode, message: messages.join("; ") || null };
  }
  const message = stringOrNull(body.detail) ?? stringOrNull(body.title) ?? stringOrNull(body.message) ?? stringOrNull(body.error);
  return { code: stringOrNull(body.error_type) ?? stringOrNull(body.code) ?? headerCode, message };
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function transportCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (isRecord(current) && typeof current.code === "string") return current.code;
    current = isRecord(current) ? current.cause : undefined;
  }
  return null;
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

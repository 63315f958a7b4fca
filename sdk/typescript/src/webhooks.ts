import { WebhookVerificationError } from "./errors.js";

// Verifying a delivery: `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, each hex the
// HMAC-SHA256, keyed by the endpoint secret's UTF-8 bytes, of `${t}.${rawBody}`. Every v1 entry is
// tried (a rotated secret signs with old and new), each comparison in constant time (Web Crypto's
// HMAC verify), and the timestamp must be within the tolerance. Web Crypto only: runs on Node ≥ 20,
// Bun, Deno and edge runtimes.

export const SIGNATURE_HEADER = "x-service-signature";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined> | string;

export type WebhookEvent<T = Record<string, unknown>> = {
  webhook_event: string;
  webhook_timestamp: string;
  webhook_delivery_id: string;
  webhook_data: T;
  [field: string]: unknown;
};

export type VerifyOptions = {
  /** A finite number of seconds, at least 0; anything else (NaN from an unset variable, Infinity) throws a TypeError. */
  toleranceSeconds?: number;
  /** Milliseconds; the clock by default. */
  now?: number;
};

/** A bad option would make every timestamp pass (NaN compares false): refused before anything is read. */
function checkedOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new TypeError(`verifyWebhook: ${name} must be a finite number of at least 0, got ${String(value)}`);
  return value;
}

function signatureHeader(headers: WebhookHeaders): string | null {
  if (typeof headers === "string") return headers;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(SIGNATURE_HEADER);
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (name.toLowerCase() === SIGNATURE_HEADER) return Array.isArray(value) ? value.join(",") : (value ?? null);
  }
  return null;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/**
 * Checks a delivery against the endpoint secret and returns its parsed body; throws
 * WebhookVerificationError (`reason`) when the header is malformed, the timestamp is outside the
 * tolerance (300 s by default) or no signature matches; throws TypeError for a tolerance (or `now`)
 * that is not a finite number ≥ 0. Pass the raw body exactly as received.
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent<T>> {
  const tolerance = checkedOption("toleranceSeconds", options.toleranceSeconds, DEFAULT_TOLERANCE_SECONDS);
  const nowMs = checkedOption("now", options.now, Date.now());
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of (signatureHeader(headers) ?? "").split(",")) {
    const equals = part.indexOf("=");
    if (equals === -1) continue;
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    // ASCII digits only (JavaScript's \d is ASCII; spelled out so no other script's digits pass).
    if (key === "t" && /^[0-9]{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) throw new WebhookVerificationError("malformed_header");
  const nowSeconds = Math.floor(nowMs / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) throw new WebhookVerificationError("timestamp_out_of_tolerance");

  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const signed = encoder.encode(`${timestamp}.${body}`);
  let matched = false;
  // Every entry is checked, matched or not, so the time taken says nothing about which one matched.
  for (const signature of signatures) {
    if (await crypto.subtle.verify("HMAC", key, hexBytes(signature), signed)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError("signature_mismatch");
  return JSON.parse(body) as WebhookEvent<T>;
}

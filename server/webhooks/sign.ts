import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

// The webhook signature: `X-Service-Signature: t=<unix seconds>,v1=<hex>`, the
// hex being the lowercase HMAC-SHA256, keyed by the secret's UTF-8 bytes, of `${t}.${rawBody}`.
// verifySignature is what a receiver runs (docs/webhooks.md shows it); tests use it as the reference receiver.

export const SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(`${timestamp}.${rawBody}`, "utf8").digest("hex");
}

/** The header value for a body sent at `timestamp` (Unix seconds). */
export function signPayload(secret: string, timestamp: number, rawBody: string): string {
  // Beyond 11 digits it is milliseconds by mistake (Date.now()), which no receiver would accept.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp > 99_999_999_999)
    throw new Error("The signature timestamp must be whole Unix seconds");
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export type SignatureCheck =
  { valid: true; timestamp: number } | { valid: false; reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" };

/**
 * Checks a received `X-Service-Signature` against the raw body (the exact bytes received, before
 * any JSON parsing). Any one `v1` entry may match; the timestamp must be within the tolerance of
 * `now` (milliseconds, default the clock) either way.
 */
export function verifySignature(
  header: string | null | undefined,
  secret: string,
  rawBody: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): SignatureCheck {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of (header ?? "").split(",")) {
    const equals = part.indexOf("=");
    if (equals === -1) continue;
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (key === "t" && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) return { valid: false, reason: "malformed_header" };

  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { valid: false, reason: "timestamp_out_of_tolerance" };

  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), "hex");
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, "hex"), expected));
  return matches ? { valid: true, timestamp } : { valid: false, reason: "signature_mismatch" };
}

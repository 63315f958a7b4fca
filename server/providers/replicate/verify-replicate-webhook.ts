import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { CallbackRejectedError } from "../http-errors";
import type { CallbackRequest } from "../types";

// Replicate signs webhooks per Standard Webhooks: `webhook-signature` holds space-separated
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64 part of the `whsec_` secret.

export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function verifyReplicateWebhook(request: CallbackRequest, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): void {
  const id = request.headers.get("webhook-id");
  const timestamp = request.headers.get("webhook-timestamp");
  const signatures = request.headers.get("webhook-signature");
  if (!id || !timestamp || !signatures) throw reject("missing webhook-id, webhook-timestamp or webhook-signature");

  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(sentAt)) throw reject("webhook-timestamp is not Unix seconds");
  if (Math.abs(nowSeconds - sentAt) > WEBHOOK_TOLERANCE_SECONDS) throw reject("webhook-timestamp is more than 5 minutes off");

  const expected = signReplicateWebhook(secret, id, timestamp, request.rawBody);
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw reject("webhook-signature does not match");
}

function signReplicateWebhook(secret: string, id: string, timestamp: string, rawBody: string): Buffer {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  return createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`).digest();
}

function reject(reason: string) {
  return new CallbackRejectedError("replicate", `Replicate webhook rejected: ${reason}`);
}

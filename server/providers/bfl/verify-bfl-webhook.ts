import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { CallbackRejectedError } from "../http-errors";
import type { CallbackRequest } from "../types";

// BFL signs a webhook sent with a `webhook_secret`: `X-BFL-Signature: sha256=<hex HMAC-SHA256 of
// the raw body>`, keyed by that secret (docs.bfl.ai, webhook integration). No timestamp is signed.

export function verifyBflWebhook(request: CallbackRequest, secret: string): void {
  const signature = request.headers.get("x-bfl-signature");
  if (!signature) throw reject("missing X-BFL-Signature");
  const hex = signature.startsWith("sha256=") ? signature.slice("sha256=".length) : "";
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw reject("X-BFL-Signature is not sha256=<hex>");
  const expected = signBflWebhook(secret, request.rawBody);
  if (!timingSafeEqual(Buffer.from(hex, "hex"), expected)) throw reject("X-BFL-Signature does not match");
}

export function signBflWebhook(secret: string, rawBody: string): Buffer {
  return createHmac("sha256", secret).update(rawBody, "utf8").digest();
}

function reject(reason: string) {
  return new CallbackRejectedError("bfl", `BFL webhook rejected: ${reason}`);
}

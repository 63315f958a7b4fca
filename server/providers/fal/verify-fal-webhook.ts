import "server-only";
import { createHash, createPublicKey, verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { CallbackRejectedError, providerErrorFromResponse, sendProviderRequest } from "../http-errors";
import type { CallbackRequest } from "../types";

// fal signs webhooks with ED25519 over
//   request_id \n user_id \n timestamp \n hex(sha256(body))
// (headers X-Fal-Webhook-Request-Id, -User-Id, -Timestamp; hex signature in -Signature), checked
// against any key of fal's JWKS. The key set is cached and fetched again once when nothing
// matches, so a key rotation costs one extra request rather than rejected webhooks.

export const WEBHOOK_TOLERANCE_SECONDS = 300;
const JWKS_CACHE_MS = 24 * 60 * 60 * 1000;
const JWKS_MIN_REFRESH_MS = 60 * 1000;

const jwksSchema = z.object({
  keys: z.array(z.object({ kty: z.string(), crv: z.string().optional(), x: z.string().optional() }).loose()),
});

export type FalWebhookVerifier = (request: CallbackRequest, nowSeconds?: number) => Promise<void>;

export function createFalWebhookVerifier(options: { jwksUrl: string; timeoutMs: number }): FalWebhookVerifier {
  let cache: { keys: KeyObject[]; fetchedAt: number } | null = null;

  async function loadKeys(): Promise<KeyObject[]> {
    const response = await sendProviderRequest("fal", options.jwksUrl, { method: "GET" }, options.timeoutMs);
    if (!response.ok) throw providerErrorFromResponse("fal", response);
    const parsed = jwksSchema.safeParse(response.body);
    const keys = (parsed.success ? parsed.data.keys : []).flatMap((jwk) => {
      if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.x) return [];
      try {
        return [createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" })];
      } catch {
        return [];
      }
    });
    cache = { keys, fetchedAt: Date.now() };
    return keys;
  }

  async function currentKeys(): Promise<KeyObject[]> {
    return cache && Date.now() - cache.fetchedAt < JWKS_CACHE_MS ? cache.keys : loadKeys();
  }

  return async (request, nowSeconds = Math.floor(Date.now() / 1000)) => {
    const requestId = request.headers.get("x-fal-webhook-request-id");
    const userId = request.headers.get("x-fal-webhook-user-id");
    const timestamp = request.headers.get("x-fal-webhook-timestamp");
    const signatureHex = request.headers.get("x-fal-webhook-signature");
    if (!requestId || !userId || !timestamp || !signatureHex) throw reject("missing X-Fal-Webhook-* headers");

    const sentAt = Number(timestamp);
    if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(sentAt)) throw reject("X-Fal-Webhook-Timestamp is not Unix seconds");
    if (Math.abs(nowSeconds - sentAt) > WEBHOOK_TOLERANCE_SECONDS) throw reject("X-Fal-Webhook-Timestamp is more than 5 minutes off");
    if (!/^[0-9a-f]{128}$/i.test(signatureHex)) throw reject("X-Fal-Webhook-Signature is not a hex ED25519 signature");

    const bodyHash = createHash("sha256").update(request.rawBody, "utf8").digest("hex");
    const message = Buffer.from([requestId, userId, timestamp, bodyHash].join("\n"), "utf8");
    const signature = Buffer.from(signatureHex, "hex");
    const signedByAny = (keys: KeyObject[]) => keys.some((key) => verify(null, message, key, signature));

    if (signedByAny(await currentKeys())) return;
    if (cache && Date.now() - cache.fetchedAt >= JWKS_MIN_REFRESH_MS && signedByAny(await loadKeys())) return;
    throw reject("X-Fal-Webhook-Signature does not verify against fal's keys");
  };
}

function reject(reason: string) {
  return new CallbackRejectedError("fal", `fal webhook rejected: ${reason}`);
}

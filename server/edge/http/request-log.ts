import "server-only";
import type { RegionName } from "../../base/env";
import type { AuthenticatedKey } from "../../keys/authenticated-key";
import { bufferRequestLog } from "./request-log-buffer";
import { hashClientIp } from "../../base/net/client-ip-hash";

// One row per request made with a known key, written in batches (request-log-buffer.ts). Never the body, never
// the raw key, never the raw IP: an HMAC of it (server/base/net/client-ip-hash.ts).

const SENSITIVE = /(key|token|secret|signature|password|auth|credential|session)/i;
const MAX_PARAMS = 20;
const MAX_VALUE = 200;

export function sanitizeQuery(params: URLSearchParams): Record<string, string> {
  const clean: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of params) {
    if (count++ >= MAX_PARAMS) break;
    clean[name.slice(0, 64)] = SENSITIVE.test(name) ? "[redacted]" : value.slice(0, MAX_VALUE);
  }
  return clean;
}

export type RequestLogInput = {
  key: AuthenticatedKey;
  /** Where the request was served, which a refused key's own region may not be. */
  region: RegionName;
  requestId: string;
  method: string;
  endpoint: string;
  query: URLSearchParams;
  statusCode: number;
  errorCode: string | null;
  idempotentReplay: boolean;
  clientIp: string;
  userAgent: string | null;
  latencyMs: number;
  /** Only successful authentications move last_used_at. */
  touchLastUsed: boolean;
};

/** Queues the row (and the key's last-used time) for the next batch: see request-log-buffer.ts. */
export async function writeRequestLog(input: RequestLogInput) {
  await bufferRequestLog({
    accountId: input.key.account.id,
    apiKeyId: input.key.id,
    requestId: input.requestId,
    keyName: input.key.name,
    keyPrefix: input.key.prefix,
    keyStatus: input.key.status,
    method: input.method,
    endpoint: input.endpoint,
    query: sanitizeQuery(input.query),
    statusCode: input.statusCode,
    errorCode: input.errorCode,
    idempotentReplay: input.idempotentReplay,
    ipHash: hashClientIp(input.clientIp),
    userAgent: input.userAgent?.slice(0, 512) ?? null,
    latencyMs: input.latencyMs,
    region: input.region,
    createdAt: new Date(),
    touchLastUsed: input.touchLastUsed,
  });
}

import "server-only";
import { createHash } from "node:crypto";
import { db } from "../db";
import { log } from "../runtime/log";
import type { AuthenticatedKey } from "./authenticate";

// One row per request made with a known key. Never the body, never
// the raw key, never the raw IP: a SHA-256 of it.

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

export function hashIp(ip: string) {
  return createHash("sha256").update(ip).digest("hex");
}

export type RequestLogInput = {
  key: AuthenticatedKey;
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

export async function writeRequestLog(input: RequestLogInput) {
  const now = new Date();
  try {
    await Promise.all([
      db.requestLog.create({
        data: {
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
          ipHash: hashIp(input.clientIp),
          userAgent: input.userAgent?.slice(0, 512) ?? null,
          latencyMs: input.latencyMs,
        },
      }),
      input.touchLastUsed ? db.apiKey.update({ where: { id: input.key.id }, data: { lastUsedAt: now } }) : Promise.resolve(),
    ]);
  } catch (error) {
    // A lost log line must not turn a served request into a 500; it is reported instead.
    log.error("request log write failed", { requestId: input.requestId, error: String(error) });
  }
}

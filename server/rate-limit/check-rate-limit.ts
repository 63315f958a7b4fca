import "server-only";
import { ApiError } from "../base/error-table";
import { planLimits, type PlanName } from "../plans/plan-limits";
import { counterStore, type CounterStore } from "./counter-store";

// Per account, fixed one-minute windows. The generation bucket counts the create
// routes; the general bucket every other authenticated /v1 route. All keys share the bucket.

export type RateLimitBucket = "general" | "generation";
export const WINDOW_SECONDS = 60;

export type RateLimitState = { limit: number; remaining: number; resetAt: number; retryAfter: number };

export function rateLimitHeaders(state: RateLimitState, rejected: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(state.remaining),
    "x-ratelimit-reset": String(state.resetAt),
  };
  if (rejected) headers["retry-after"] = String(state.retryAfter);
  return headers;
}

function windowOf(now: number) {
  const start = Math.floor(now / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;
  return { windowStart: new Date(start), resetAt: start / 1000 + WINDOW_SECONDS };
}

function stateFor(limit: number, count: number, resetAt: number, now: number): RateLimitState {
  return { limit, remaining: Math.max(0, limit - count), resetAt, retryAfter: Math.max(1, Math.ceil(resetAt - now / 1000)) };
}

type Input = { accountId: string; plan: PlanName; bucket: RateLimitBucket; store?: CounterStore; now?: number };

/** Counts this request; throws ERR1005 (with the headers) past the plan's limit. */
export async function consumeRateLimit({
  accountId,
  plan,
  bucket,
  store = counterStore(),
  now = Date.now(),
}: Input): Promise<RateLimitState> {
  const limit = planLimits[plan].requestsPerMinute[bucket];
  const { windowStart, resetAt } = windowOf(now);
  const count = await store.increment(`${bucket}:${accountId}`, windowStart, WINDOW_SECONDS);
  const state = stateFor(limit, count, resetAt, now);
  if (count > limit) {
    throw new ApiError(
      "ERR1005",
      `Rate limit of ${limit} ${bucket} requests per minute exceeded.`,
      { limit, bucket, reset_at: resetAt },
      rateLimitHeaders(state, true),
    );
  }
  return state;
}

/** The current state without counting, for responses refused before the limiter ran. */
export async function peekRateLimit({ accountId, plan, bucket, store = counterStore(), now = Date.now() }: Input): Promise<RateLimitState> {
  const limit = planLimits[plan].requestsPerMinute[bucket];
  const { windowStart, resetAt } = windowOf(now);
  return stateFor(limit, await store.peek(`${bucket}:${accountId}`, windowStart), resetAt, now);
}

import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ApiError } from "@/server/base/error-table";
import { consumeRateLimit, peekRateLimit } from "@/server/rate-limit/check-rate-limit";
import { postgresCounterStore, redisCounterStore, type CounterStore } from "@/server/rate-limit/counter-store";
import { disconnectRedis } from "@/server/base/cache/redis";
import { planLimits, planNames } from "@/server/plans/plan-limits";

// Both counter backends at the exact plan limits, both buckets, every plan. `now` is fixed, so a
// minute boundary cannot split a sequence, and it sits in the current real minute, so the app
// server's rate-limit-sweep cron (wall clock, same database) never counts its windows as expired.
// Redis runs where REDIS_URL is set (CI).

const backends: Array<[string, () => CounterStore | null]> = [
  ["postgres", () => postgresCounterStore()],
  ["redis", () => (process.env.REDIS_URL ? redisCounterStore() : null)],
];

/** Second `second` of the current real minute. */
function inThisMinute(second: number) {
  return Math.floor(Date.now() / 60_000) * 60_000 + second * 1000;
}

afterAll(async () => {
  await disconnectRedis();
});

for (const [name, makeStore] of backends) {
  describe.skipIf(name === "redis" && !process.env.REDIS_URL)(`${name} counters`, () => {
    for (const plan of planNames) {
      for (const bucket of ["general", "generation"] as const) {
        const limit = planLimits[plan].requestsPerMinute[bucket];
        it(`${plan} ${bucket}: ${limit} pass, the next is ERR1005`, async () => {
          const store = makeStore()!;
          const accountId = randomUUID();
          const now = inThisMinute(30);
          for (let index = 1; index <= limit; index += 1) {
            const state = await consumeRateLimit({ accountId, plan, bucket, store, now });
            if (index === limit) expect(state).toEqual({ limit, remaining: 0, resetAt: (now + 30_000) / 1000, retryAfter: 30 });
          }
          const refused = await consumeRateLimit({ accountId, plan, bucket, store, now }).catch((error: unknown) => error);
          expect(refused).toBeInstanceOf(ApiError);
          expect((refused as ApiError).code).toBe("ERR1005");
          expect((refused as ApiError).headers["retry-after"]).toBe("30");
          // The next window starts from zero.
          const next = await consumeRateLimit({ accountId, plan, bucket, store, now: now + 60_000 });
          expect(next.remaining).toBe(limit - 1);
        });
      }
    }

    it("counts concurrent increments exactly", async () => {
      const store = makeStore()!;
      const accountId = randomUUID();
      const now = inThisMinute(5);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 60 }, () => consumeRateLimit({ accountId, plan: "free", bucket: "general", store, now })),
      );
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(30);
      expect((await peekRateLimit({ accountId, plan: "free", bucket: "general", store, now })).remaining).toBe(0);
    });

    it("keeps the two buckets of one account apart", async () => {
      const store = makeStore()!;
      const accountId = randomUUID();
      const now = inThisMinute(5);
      for (let index = 0; index < 10; index += 1) await consumeRateLimit({ accountId, plan: "free", bucket: "generation", store, now });
      await expect(consumeRateLimit({ accountId, plan: "free", bucket: "generation", store, now })).rejects.toBeInstanceOf(ApiError);
      expect((await consumeRateLimit({ accountId, plan: "free", bucket: "general", store, now })).remaining).toBe(29);
    });
  });
}

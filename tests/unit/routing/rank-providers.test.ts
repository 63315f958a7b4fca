import { describe, expect, it } from "vitest";
import type { ProviderId } from "@/server/catalog/index";
import { rankProviders, type ProviderStats } from "@/server/routing/rank-providers";

const now = new Date("2001-05-01T12:00:00.000Z");
const secondsAgo = (seconds: number) => new Date(now.getTime() - seconds * 1000);

/** A clean history: every attempt succeeded, the last one a minute ago. */
function history(overrides: Partial<ProviderStats> & { successes?: number } = {}): ProviderStats {
  const successes = overrides.successes ?? 10;
  const failures = overrides.failures ?? 0;
  return {
    attempts: successes + failures,
    successes,
    failures,
    wasted: 0,
    p95LatencyMs: 1_000,
    consecutiveFailures: 0,
    lastFailureAt: failures > 0 ? secondsAgo(300) : null,
    lastSuccessAt: successes > 0 ? secondsAgo(60) : null,
    ...overrides,
  };
}

const rank = (candidates: ProviderId[], stats: Record<string, ProviderStats>, options: { minAttempts?: number; scoreBand?: number } = {}) =>
  rankProviders(candidates, new Map(Object.entries(stats)), { now, ...options });

describe("rankProviders", () => {
  it("keeps the catalog order when there is no data", () => {
    const ranking = rank(["replicate", "fal", "openai"], {});
    expect(ranking.order).toEqual(["replicate", "fal", "openai"]);
    expect(ranking.reasons).toEqual({ replicate: "no data", fal: "no data", openai: "no data" });
  });

  it("treats a provider with zero finished attempts as having no data", () => {
    expect(rank(["replicate", "fal"], { replicate: history({ successes: 0, attempts: 0 }) }).order).toEqual(["replicate", "fal"]);
  });

  it("puts the faster of two equally reliable providers first", () => {
    const ranking = rank(["replicate", "fal"], {
      replicate: history({ p95LatencyMs: 9_000 }),
      fal: history({ p95LatencyMs: 2_000 }),
    });
    expect(ranking.order).toEqual(["fal", "replicate"]);
    expect(ranking.reasons).toEqual({ fal: "score 1.00, p95 2000 ms", replicate: "score 1.00, p95 9000 ms" });
  });

  it("puts a slower reliable provider before a fast one that often fails", () => {
    const ranking = rank(["replicate", "fal"], {
      replicate: history({ successes: 6, failures: 4, p95LatencyMs: 500 }),
      fal: history({ successes: 10, p95LatencyMs: 8_000 }),
    });
    expect(ranking.order).toEqual(["fal", "replicate"]);
    expect(ranking.reasons.replicate).toBe("score 0.60, p95 500 ms");
  });

  it("penalises wasted attempts", () => {
    const ranking = rank(["replicate", "fal"], {
      replicate: history({ attempts: 12, successes: 10, wasted: 4, p95LatencyMs: 500 }),
      fal: history({ p95LatencyMs: 8_000 }),
    });
    expect(ranking.order).toEqual(["fal", "replicate"]);
    // 10/10 decided succeeded, 4 of 12 finished wasted: 1 − 0.5 × 0.333.
    expect(ranking.reasons.replicate).toBe("score 0.83, p95 500 ms");
  });

  it("lets latency decide between providers in the same score band, and not across bands", () => {
    const nearlyEqual = {
      replicate: history({ successes: 49, failures: 1, p95LatencyMs: 9_000 }),
      fal: history({ successes: 24, failures: 1, p95LatencyMs: 2_000 }),
    };
    expect(rank(["replicate", "fal"], nearlyEqual).order).toEqual(["fal", "replicate"]);
    expect(rank(["replicate", "fal"], nearlyEqual, { scoreBand: 0 }).order).toEqual(["replicate", "fal"]);

    const apart = {
      replicate: history({ successes: 20, p95LatencyMs: 9_000 }),
      fal: history({ successes: 17, failures: 3, p95LatencyMs: 2_000 }),
    };
    expect(rank(["replicate", "fal"], apart).order).toEqual(["replicate", "fal"]);
  });

  it("ranks a scored provider without latency data after one with it in the same band", () => {
    expect(
      rank(["replicate", "fal"], { replicate: history({ p95LatencyMs: null }), fal: history({ p95LatencyMs: 60_000 }) }).order,
    ).toEqual(["fal", "replicate"]);
  });

  it("opens the circuit after 3 consecutive failures and moves the provider last", () => {
    const ranking = rank(["replicate", "fal", "openai"], {
      replicate: history({ successes: 30, failures: 3, consecutiveFailures: 3, lastFailureAt: secondsAgo(5), p95LatencyMs: 100 }),
      fal: history({ successes: 20, p95LatencyMs: 5_000 }),
    });
    expect(ranking.order).toEqual(["fal", "openai", "replicate"]);
    expect(ranking.reasons.replicate).toBe("open circuit (3 consecutive failures, half-open in 25 s)");
    expect(ranking.reasons.openai).toBe("no data");
    expect(ranking.openCircuits).toEqual(["replicate"]);
  });

  it("keeps the circuit closed after 2 consecutive failures", () => {
    const ranking = rank(["fal", "replicate"], {
      replicate: history({ successes: 30, failures: 2, consecutiveFailures: 2, lastFailureAt: secondsAgo(1), p95LatencyMs: 100 }),
    });
    expect(ranking.order).toEqual(["replicate", "fal"]);
    expect(ranking.reasons.replicate).toBe("score 0.94, p95 100 ms");
  });

  it("opens the circuit on a failure rate of one half over at least minAttempts", () => {
    const fal = history({ p95LatencyMs: 5_000 });
    const halfFailed = history({ successes: 3, failures: 3, consecutiveFailures: 1, lastFailureAt: secondsAgo(2), p95LatencyMs: 100 });
    const ranking = rank(["replicate", "fal"], { replicate: halfFailed, fal });
    expect(ranking.order).toEqual(["fal", "replicate"]);
    expect(ranking.reasons.replicate).toBe("open circuit (failure rate 0.50 over 6 attempts, half-open in 28 s)");

    // 3 of 4 failed, but 4 attempts are too few to judge a rate: unscored, after fal.
    const fewAttempts = history({ successes: 1, failures: 3, consecutiveFailures: 1, lastFailureAt: secondsAgo(2) });
    expect(rank(["replicate", "fal"], { replicate: fewAttempts, fal }).reasons.replicate).toBe(
      "4 decided attempts, fewer than 5: catalog order",
    );
  });

  it("half-opens the circuit once the cool-down has passed since the last failure", () => {
    const tripped = (lastFailureSecondsAgo: number) =>
      history({ successes: 30, failures: 3, consecutiveFailures: 3, lastFailureAt: secondsAgo(lastFailureSecondsAgo), p95LatencyMs: 100 });
    const fal = history({ successes: 9, failures: 1, p95LatencyMs: 5_000 });

    expect(rank(["replicate", "fal"], { replicate: tripped(29.999), fal }).order).toEqual(["fal", "replicate"]);
    const halfOpen = rank(["replicate", "fal"], { replicate: tripped(30), fal });
    expect(halfOpen.order).toEqual(["replicate", "fal"]);
    expect(halfOpen.reasons.replicate).toBe("half-open circuit (3 consecutive failures), score 0.91, p95 100 ms");
  });

  it("keeps a half-open provider with too few attempts in catalog order among the unscored", () => {
    const ranking = rank(["replicate", "fal"], {
      replicate: history({ successes: 0, failures: 3, consecutiveFailures: 3, lastFailureAt: secondsAgo(31) }),
    });
    expect(ranking.order).toEqual(["replicate", "fal"]);
    expect(ranking.reasons.replicate).toBe("half-open circuit (3 consecutive failures), 3 decided attempts, fewer than 5: catalog order");
  });

  it("keeps the circuit open when the time of the last failure is unknown", () => {
    const ranking = rank(["replicate", "fal"], { replicate: history({ failures: 3, consecutiveFailures: 3, lastFailureAt: null }) });
    expect(ranking.order).toEqual(["fal", "replicate"]);
    expect(ranking.reasons.replicate).toBe("open circuit (3 consecutive failures)");
  });

  it("scores a provider only from minAttempts decided attempts", () => {
    const fastFal = (successes: number) => history({ successes, p95LatencyMs: 200 });
    const slowReplicate = history({ successes: 50, p95LatencyMs: 9_000 });
    expect(rank(["replicate", "fal"], { replicate: slowReplicate, fal: fastFal(4) }).order).toEqual(["replicate", "fal"]);
    expect(rank(["replicate", "fal"], { replicate: slowReplicate, fal: fastFal(5) }).order).toEqual(["fal", "replicate"]);
    expect(rank(["replicate", "fal"], { replicate: slowReplicate, fal: fastFal(3) }, { minAttempts: 3 }).order).toEqual([
      "fal",
      "replicate",
    ]);
  });

  it("does not count canceled or discarded attempts as decided", () => {
    const ranking = rank(["replicate", "fal"], {
      replicate: history({ successes: 50, p95LatencyMs: 9_000 }),
      fal: history({ attempts: 10, successes: 4, p95LatencyMs: 200 }),
    });
    expect(ranking.order).toEqual(["replicate", "fal"]);
    expect(ranking.reasons.fal).toBe("4 decided attempts, fewer than 5: catalog order");
  });

  it("puts scored providers first, then unscored in catalog order, then open circuits", () => {
    const ranking = rank(["local", "local-backup", "replicate", "fal", "openai"], {
      local: history({ successes: 6, failures: 10, consecutiveFailures: 1, lastFailureAt: secondsAgo(1) }),
      "local-backup": history({ successes: 2 }),
      fal: history({ successes: 5 }),
    });
    expect(ranking.order).toEqual(["fal", "local-backup", "replicate", "openai", "local"]);
  });

  it("breaks ties by catalog order", () => {
    const same = history({ successes: 8, failures: 1, p95LatencyMs: 1_234 });
    expect(rank(["replicate", "fal", "openai"], { openai: same, fal: same, replicate: same }).order).toEqual([
      "replicate",
      "fal",
      "openai",
    ]);
    expect(rank(["openai", "fal", "replicate"], { replicate: same, fal: same, openai: same }).order).toEqual([
      "openai",
      "fal",
      "replicate",
    ]);
  });

  it("returns every provider, in catalog order, when every circuit is open", () => {
    const open = history({ successes: 10, failures: 3, consecutiveFailures: 3, lastFailureAt: secondsAgo(1) });
    const ranking = rank(["replicate", "fal", "openai"], { openai: open, replicate: open, fal: open });
    expect(ranking.order).toEqual(["replicate", "fal", "openai"]);
    expect(Object.values(ranking.reasons).every((reason) => reason?.startsWith("open circuit"))).toBe(true);
  });

  it("ignores undefined options instead of erasing the defaults", () => {
    const stats = new Map([["fal", history({ successes: 4, p95LatencyMs: 1 })]]);
    expect(rankProviders(["replicate", "fal"], stats, { now, minAttempts: undefined }).order).toEqual(["replicate", "fal"]);
  });
});

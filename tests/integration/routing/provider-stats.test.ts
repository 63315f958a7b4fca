import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ProviderId } from "@/server/catalog/index";
import { db, disconnectDb, type Db } from "@/server/base/db";
import type { RegionName } from "@/server/base/env";
import type { AttemptOutcome } from "@/server/base/generated/prisma/client";
import { log } from "@/server/base/log";
import { loadProviderStats, ROUTING_WINDOW_SECONDS } from "@/server/routing/provider-stats";
import { resolveProviderOrder } from "@/server/routing/resolve-provider-order";

// Routing reads every account's attempts for a (region, model), so each scenario uses its own
// model identifier at its own moment in 2001, where no other suite writes.

const SECOND_MS = 1_000;
const WINDOW_MS = ROUTING_WINDOW_SECONDS * SECOND_MS;
const epoch = Date.UTC(2001, 0, 1) + Math.floor(Math.random() * 300) * 86_400_000;
let scenarios = 0;
const nextScenarioTime = () => new Date(epoch + ++scenarios * 3_600_000);
const uniqueModel = () => `test/routing-${randomUUID()}`;
const before = (now: Date, ms: number) => new Date(now.getTime() - ms);

let accountId: string;
let generationId: string;
let attemptNumber = 0;

type AttemptSpec = {
  modelIdentifier: string;
  provider: string;
  outcome: AttemptOutcome;
  finishedAt: Date;
  latencyMs?: number;
  wasted?: boolean;
  region?: RegionName;
  startedAt?: Date;
  count?: number;
};

async function recordAttempts(spec: AttemptSpec) {
  const { count = 1, latencyMs = 1_000, region = "us" } = spec;
  await db.providerAttempt.createMany({
    data: Array.from({ length: count }, () => ({
      generationId,
      accountId,
      region,
      modelIdentifier: spec.modelIdentifier,
      provider: spec.provider,
      attemptNumber: ++attemptNumber,
      outcome: spec.outcome,
      wasted: spec.wasted ?? false,
      latencyMs: spec.outcome === "running" ? null : latencyMs,
      startedAt: spec.startedAt ?? before(spec.finishedAt, latencyMs),
      finishedAt: spec.outcome === "running" ? null : spec.finishedAt,
    })),
  });
}

/** Oldest first, one second apart, ending `endMsAgo` before now. */
async function recordSequence(modelIdentifier: string, provider: string, now: Date, outcomes: AttemptOutcome[], endMsAgo = 0) {
  for (const [index, outcome] of outcomes.entries()) {
    await recordAttempts({
      modelIdentifier,
      provider,
      outcome,
      finishedAt: before(now, endMsAgo + (outcomes.length - 1 - index) * SECOND_MS),
    });
  }
}

/** The ranking alone: these scenarios are about order, not exploration. */
const noExploration = () => ({ generationId: randomUUID(), explorationShare: 0 });

const failingDb = () =>
  ({
    $queryRaw: async () => {
      throw new Error("connection refused");
    },
  }) as unknown as Db;

beforeAll(async () => {
  const account = await db.account.create({ data: { name: "Routing test", email: `routing-${randomUUID()}@example.test` } });
  accountId = account.id;
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "test/routing",
      providerOrder: ["replicate", "fal"],
      estimatedCost: "0.003",
    },
  });
  generationId = generation.id;
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await db.account.deleteMany({ where: { id: accountId } });
  await disconnectDb();
});

describe("loadProviderStats", () => {
  it("counts finished attempts by outcome, with p95 latency over successes", async () => {
    const now = nextScenarioTime();
    const model = uniqueModel();
    // 20 successes at 100, 200, … 2000 ms, the newest 3 minutes ago.
    for (let index = 1; index <= 20; index++) {
      await recordAttempts({
        modelIdentifier: model,
        provider: "replicate",
        outcome: "succeeded",
        latencyMs: index * 100,
        finishedAt: before(now, (200 - index) * SECOND_MS),
      });
    }
    // Then, newest last: a failure, a cancellation (skipped by the run), a failure. Fast errors
    // must not lower the p95.
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "failed",
      latencyMs: 5,
      finishedAt: before(now, 60 * SECOND_MS),
    });
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "canceled",
      latencyMs: 50_000,
      finishedAt: before(now, 45 * SECOND_MS),
    });
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "failed",
      latencyMs: 5,
      wasted: true,
      finishedAt: before(now, 30 * SECOND_MS),
    });
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "discarded",
      latencyMs: 90_000,
      wasted: true,
      finishedAt: before(now, 150 * SECOND_MS),
    });
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "running",
      finishedAt: before(now, 10 * SECOND_MS),
      count: 4,
    });
    await recordAttempts({
      modelIdentifier: model,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 700,
      finishedAt: before(now, 10 * SECOND_MS),
    });

    const stats = await loadProviderStats({ region: "us", modelIdentifier: model, providers: ["replicate", "fal", "openai"], now });

    expect(stats.get("replicate")).toEqual({
      attempts: 24,
      successes: 20,
      failures: 2,
      wasted: 2,
      // percentile_cont over 100…2000: 1900 + 0.05 × 100.
      p95LatencyMs: 1905,
      consecutiveFailures: 2,
      lastFailureAt: before(now, 30 * SECOND_MS),
      lastSuccessAt: before(now, 180 * SECOND_MS),
    });
    expect(stats.get("fal")).toMatchObject({
      attempts: 1,
      successes: 1,
      failures: 0,
      p95LatencyMs: 700,
      consecutiveFailures: 0,
      lastFailureAt: null,
    });
    expect(stats.has("openai")).toBe(false);
  });

  it("counts consecutive failures since the most recent success only", async () => {
    const now = nextScenarioTime();
    const model = uniqueModel();
    await recordSequence(model, "replicate", now, ["failed", "failed", "succeeded", "failed"]);
    await recordSequence(model, "fal", now, ["succeeded", "failed", "discarded", "failed", "failed"]);
    await recordSequence(model, "openai", now, ["failed", "failed"]);

    const stats = await loadProviderStats({ region: "us", modelIdentifier: model, providers: ["replicate", "fal", "openai"], now });

    expect(stats.get("replicate")?.consecutiveFailures).toBe(1);
    expect(stats.get("fal")?.consecutiveFailures).toBe(3);
    expect(stats.get("openai")).toMatchObject({ consecutiveFailures: 2, lastSuccessAt: null, p95LatencyMs: null });
  });

  it("reads only attempts that finished inside the window", async () => {
    const now = nextScenarioTime();
    const model = uniqueModel();
    const windowStart = before(now, WINDOW_MS);
    await recordAttempts({ modelIdentifier: model, provider: "replicate", outcome: "succeeded", finishedAt: windowStart });
    await recordAttempts({ modelIdentifier: model, provider: "replicate", outcome: "succeeded", finishedAt: now });
    // Started long before the window, finished inside it.
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "succeeded",
      finishedAt: before(now, 60 * SECOND_MS),
      startedAt: before(now, WINDOW_MS + 600 * SECOND_MS),
    });
    // Not counted: a millisecond before the window, a millisecond after now.
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "failed",
      finishedAt: before(windowStart, 1),
      count: 3,
    });
    await recordAttempts({
      modelIdentifier: model,
      provider: "replicate",
      outcome: "failed",
      finishedAt: new Date(now.getTime() + 1),
      count: 3,
    });

    const stats = await loadProviderStats({ region: "us", modelIdentifier: model, providers: ["replicate"], now });
    expect(stats.get("replicate")).toMatchObject({ attempts: 3, successes: 3, failures: 0, consecutiveFailures: 0 });

    const narrow = await loadProviderStats({ region: "us", modelIdentifier: model, providers: ["replicate"], now, windowSeconds: 120 });
    expect(narrow.get("replicate")).toMatchObject({ attempts: 2, successes: 2 });
  });

  it("keeps regions, models and unrequested providers apart", async () => {
    const now = nextScenarioTime();
    const model = uniqueModel();
    const otherModel = uniqueModel();
    const finishedAt = before(now, 60 * SECOND_MS);
    await recordAttempts({ modelIdentifier: model, provider: "replicate", outcome: "succeeded", finishedAt, count: 2 });
    await recordAttempts({ modelIdentifier: model, provider: "replicate", outcome: "failed", finishedAt, region: "eu", count: 5 });
    await recordAttempts({ modelIdentifier: otherModel, provider: "replicate", outcome: "failed", finishedAt, count: 5 });
    await recordAttempts({ modelIdentifier: model, provider: "fal", outcome: "failed", finishedAt, count: 5 });

    const us = await loadProviderStats({ region: "us", modelIdentifier: model, providers: ["replicate"], now });
    expect([...us.keys()]).toEqual(["replicate"]);
    expect(us.get("replicate")).toMatchObject({ attempts: 2, successes: 2, failures: 0 });

    const eu = await loadProviderStats({ region: "eu", modelIdentifier: model, providers: ["replicate", "fal"], now });
    expect([...eu.keys()]).toEqual(["replicate"]);
    expect(eu.get("replicate")).toMatchObject({ attempts: 5, failures: 5, consecutiveFailures: 5 });

    expect((await loadProviderStats({ region: "jp", modelIdentifier: model, providers: ["replicate", "fal"], now })).size).toBe(0);
  });

  it("rejects a window that is not a positive whole number of seconds", async () => {
    await expect(loadProviderStats({ region: "us", modelIdentifier: uniqueModel(), providers: ["fal"], windowSeconds: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe("resolveProviderOrder", () => {
  const modelFor = (providers: [ProviderId, ...ProviderId[]]) => ({ identifier: uniqueModel(), providers });

  it("uses the catalog order without data, then ranks the faster reliable provider first", async () => {
    const now = nextScenarioTime();
    const model = modelFor(["replicate", "fal"]);
    expect((await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, now })).order).toEqual([
      "replicate",
      "fal",
    ]);

    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "replicate",
      outcome: "succeeded",
      latencyMs: 9_000,
      finishedAt: before(now, 120 * SECOND_MS),
      count: 10,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 2_000,
      finishedAt: before(now, 120 * SECOND_MS),
      count: 10,
    });
    // Within the 2 s cache the first answer stands; after it the new attempts count.
    const later = (ms: number) => new Date(now.getTime() + ms);
    expect(
      (await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, now: later(1_999) })).order,
    ).toEqual(["replicate", "fal"]);
    expect(
      (await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, now: later(2_000) })).order,
    ).toEqual(["fal", "replicate"]);
    // Another region has no data of its own.
    expect(
      (await resolveProviderOrder({ ...noExploration(), model, region: "eu", requested: { mode: "fastest" }, now: later(2_000) })).order,
    ).toEqual(["replicate", "fal"]);
  });

  it("moves a provider with an open circuit last until its cool-down passes", async () => {
    const now = nextScenarioTime();
    const model = modelFor(["replicate", "fal", "openai"]);
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "replicate",
      outcome: "succeeded",
      latencyMs: 500,
      finishedAt: before(now, 300 * SECOND_MS),
      count: 20,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 4_000,
      finishedAt: before(now, 300 * SECOND_MS),
      count: 20,
    });
    await recordSequence(model.identifier, "replicate", now, ["failed", "failed", "failed"], 10 * SECOND_MS);

    expect((await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, now })).order).toEqual([
      "fal",
      "openai",
      "replicate",
    ]);
    // 30 s after the last failure the circuit is half-open: replicate is scored again (0.87,
    // below fal's 1.00) and ranks before the provider without data.
    const halfOpen = new Date(now.getTime() + 20 * SECOND_MS);
    expect(
      (await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, now: halfOpen })).order,
    ).toEqual(["fal", "replicate", "openai"]);
  });

  it("passes an explicit list through unchanged, without reading attempts", async () => {
    const model = modelFor(["replicate", "fal", "openai"]);
    const order = (
      await resolveProviderOrder({
        ...noExploration(),
        model,
        region: "us",
        requested: { mode: "explicit", providers: ["openai", "replicate"] },
        db: failingDb(),
      })
    ).order;
    expect(order).toEqual(["openai", "replicate"]);
  });

  it("returns a single-provider model's provider without reading attempts", async () => {
    const warn = vi.spyOn(log, "warn");
    expect(
      (
        await resolveProviderOrder({
          ...noExploration(),
          model: modelFor(["openai"]),
          region: "us",
          requested: { mode: "fastest" },
          db: failingDb(),
        })
      ).order,
    ).toEqual(["openai"]);
    expect(warn).not.toHaveBeenCalled();
  });

  it("falls back to the catalog order, with a warning, when the attempts cannot be read", async () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const model = modelFor(["replicate", "fal"]);
    const database = failingDb();
    expect(
      (await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, db: database })).order,
    ).toEqual(["replicate", "fal"]);
    expect(warn).toHaveBeenCalledWith("provider ranking failed, using catalog order", {
      region: "us",
      model_identifier: model.identifier,
      error: "connection refused",
    });
    // The failure is not cached: the next create asks the database again.
    await resolveProviderOrder({ ...noExploration(), model, region: "us", requested: { mode: "fastest" }, db: database });
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("resolveProviderOrder: exploration", () => {
  const modelFor = (providers: [ProviderId, ...ProviderId[]]) => ({ identifier: uniqueModel(), providers });
  const ids = Array.from({ length: 2_000 }, () => randomUUID());

  async function chains(model: ReturnType<typeof modelFor>, now: Date, region: RegionName = "us") {
    const chosen = [];
    // One `now`: the stats are read once and cached, the decision differs only by generation id.
    for (const generationId of ids)
      chosen.push(await resolveProviderOrder({ model, region, requested: { mode: "fastest" }, generationId, now }));
    return chosen;
  }

  it("sends about 5 % of fastest generations to the second-ranked healthy provider, the rest of the chain intact", async () => {
    const now = nextScenarioTime();
    const model = modelFor(["replicate", "fal", "openai"]);
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "replicate",
      outcome: "succeeded",
      latencyMs: 9_000,
      finishedAt: before(now, 120 * SECOND_MS),
      count: 10,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 2_000,
      finishedAt: before(now, 120 * SECOND_MS),
      count: 10,
    });

    const chosen = await chains(model, now);
    const explored = chosen.filter((choice) => choice.explored);
    // 2,000 draws at 5 %: 100 expected, standard deviation about 10.
    expect(explored.length).toBeGreaterThanOrEqual(60);
    expect(explored.length).toBeLessThanOrEqual(140);
    for (const choice of explored) expect(choice.order).toEqual(["replicate", "fal", "openai"]);
    for (const choice of chosen.filter((choice) => !choice.explored)) expect(choice.order).toEqual(["fal", "replicate", "openai"]);
    // The same generation gets the same chain again.
    const again = await resolveProviderOrder({ model, region: "us", requested: { mode: "fastest" }, generationId: ids[0]!, now });
    expect(again).toEqual(chosen[0]);
  });

  it("never explores a provider whose circuit is open, and explores it again once half-open", async () => {
    const now = nextScenarioTime();
    const model = modelFor(["replicate", "fal"]);
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 2_000,
      finishedAt: before(now, 300 * SECOND_MS),
      count: 20,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "replicate",
      outcome: "succeeded",
      latencyMs: 500,
      finishedAt: before(now, 300 * SECOND_MS),
      count: 20,
    });
    await recordSequence(model.identifier, "replicate", now, ["failed", "failed", "failed"], 10 * SECOND_MS);

    const open = await chains(model, now);
    expect(open.every((choice) => !choice.explored)).toBe(true);
    expect(new Set(open.map((choice) => choice.order.join(",")))).toEqual(new Set(["fal,replicate"]));

    // Forced exploration still refuses the open circuit.
    const forced = await resolveProviderOrder({
      model,
      region: "us",
      requested: { mode: "fastest" },
      generationId: randomUUID(),
      explorationShare: 1,
      now,
    });
    expect(forced).toEqual({ order: ["fal", "replicate"], explored: false });

    // After the cool-down, replicate is ranked again (score 0.87 < fal's 1.00): it is second and healthy.
    const halfOpen = new Date(now.getTime() + 25 * SECOND_MS);
    const later = await resolveProviderOrder({
      model,
      region: "us",
      requested: { mode: "fastest" },
      generationId: randomUUID(),
      explorationShare: 1,
      now: halfOpen,
    });
    expect(later).toEqual({ order: ["replicate", "fal"], explored: true });
  });

  it("does not explore with a single provider outside an open circuit, nor for an explicit order", async () => {
    const now = nextScenarioTime();
    const model = modelFor(["replicate", "fal", "openai"]);
    await recordSequence(model.identifier, "fal", now, ["failed", "failed", "failed"], 5 * SECOND_MS);
    await recordSequence(model.identifier, "openai", now, ["failed", "failed", "failed"], 5 * SECOND_MS);
    const forced = await resolveProviderOrder({
      model,
      region: "us",
      requested: { mode: "fastest" },
      generationId: randomUUID(),
      explorationShare: 1,
      now,
    });
    expect(forced).toEqual({ order: ["replicate", "fal", "openai"], explored: false });

    const explicit = await resolveProviderOrder({
      model,
      region: "us",
      requested: { mode: "explicit", providers: ["fal", "replicate"] },
      generationId: randomUUID(),
      explorationShare: 1,
      now,
    });
    expect(explicit).toEqual({ order: ["fal", "replicate"], explored: false });
  });
});

describe("resolveProviderOrder: regions", () => {
  it("ranks each region by its own latencies", async () => {
    const now = nextScenarioTime();
    const model = { identifier: uniqueModel(), providers: ["replicate", "fal"] as [ProviderId, ...ProviderId[]] };
    const finishedAt = before(now, 120 * SECOND_MS);
    // In eu replicate is the fast one; in jp fal is.
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "replicate",
      outcome: "succeeded",
      latencyMs: 1_000,
      finishedAt,
      region: "eu",
      count: 10,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 6_000,
      finishedAt,
      region: "eu",
      count: 10,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "replicate",
      outcome: "succeeded",
      latencyMs: 7_000,
      finishedAt,
      region: "jp",
      count: 10,
    });
    await recordAttempts({
      modelIdentifier: model.identifier,
      provider: "fal",
      outcome: "succeeded",
      latencyMs: 1_500,
      finishedAt,
      region: "jp",
      count: 10,
    });

    const order = async (region: RegionName) =>
      (await resolveProviderOrder({ ...noExploration(), model, region, requested: { mode: "fastest" }, now })).order;
    expect(await order("eu")).toEqual(["replicate", "fal"]);
    expect(await order("jp")).toEqual(["fal", "replicate"]);
  });
});

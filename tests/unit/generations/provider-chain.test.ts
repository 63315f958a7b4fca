import { describe, expect, it } from "vitest";
import type { ProviderId } from "@/server/catalog/providers";
import type { AttemptError, AttemptOutcome } from "@/server/generations/run/attempt-outcome";
import { MAX_WAKES, pollDelaysSeconds, runProviderChain, type ChainSteps, type ChainWork } from "@/server/generations/run/provider-chain";

// The generation run's step structure, driven by a step API that behaves as Inngest's does for one
// pass (each step id once, memoized result returned) on a simulated clock: waits end at their
// timeout unless a result event is due earlier. Counts every step the run takes.

type Accepted = Extract<AttemptOutcome, { outcome: "accepted" }>;

function drivenSteps(options: { resultAt?: (predictionId: string) => number | null }) {
  let clock = 0;
  const ids: string[] = [];
  const sent: Array<{ name: string; id: string; data: Record<string, unknown> }> = [];
  const record = (id: string) => {
    if (ids.includes(id)) throw new Error(`step id ${id} used twice`);
    ids.push(id);
  };
  const steps: ChainSteps = {
    async run(id, body) {
      record(id);
      return body();
    },
    async sendEvent(id, event) {
      record(id);
      sent.push(event);
      return { ids: [event.id] };
    },
    async waitForEvent(id, { timeout, if: condition }) {
      record(id);
      const predictionId = /== "(.*)"$/.exec(condition)?.[1] ?? "";
      const at = options.resultAt?.(predictionId) ?? null;
      if (at !== null && at <= timeout.getTime()) {
        clock = Math.max(clock, at);
        return { name: "provider/result.received", data: { predictionId } };
      }
      clock = Math.max(clock, timeout.getTime());
      return null;
    },
  };
  return { steps, ids, sent, now: () => clock };
}

/** Providers that accept at once and finish (or not) at a time of the simulated clock. */
function slowProviders(now: () => number, finishesAt: Partial<Record<ProviderId, number>>, timeoutSeconds = 900) {
  const calls = { submit: 0, collect: 0, finished: [] as string[] };
  const work: ChainWork = {
    load: async () => ({ inFlight: true, providers: ["replicate", "fal"] }),
    submit: async (provider): Promise<AttemptOutcome> => {
      calls.submit += 1;
      return { outcome: "accepted", predictionId: `${provider}-job`, startedAtMs: now(), timeoutSeconds };
    },
    collect: async (provider, _attempt, accepted: Accepted, timedOut): Promise<AttemptOutcome> => {
      calls.collect += 1;
      const done = finishesAt[provider];
      if (done !== undefined && now() >= done)
        return { outcome: "succeeded", predictionId: accepted.predictionId, outputKeys: ["out.png"], predictTimeSeconds: null };
      if (timedOut)
        return {
          outcome: "failed",
          error: { provider, code: "ERR4001", message: `No result within ${accepted.timeoutSeconds} s.`, failover: true },
        };
      return { outcome: "running" };
    },
    finishSucceeded: async (attempt) => (calls.finished.push(`succeeded:${attempt}`), { succeeded: true }),
    finishFailed: async (errors: AttemptError[]) => (
      calls.finished.push(`failed:${errors.map((error) => error.code).join(",")}`),
      { failed: true }
    ),
    expire: async () => (calls.finished.push(`expired@${now()}`), { outcome: "canceled" }),
  };
  return { work, calls };
}

describe("the generation run's steps", () => {
  it("takes a bounded number of steps when a 900 s model times out on both providers", async () => {
    const driven = drivenSteps({});
    const { work, calls } = slowProviders(driven.now, {});
    await runProviderChain("gen-1", driven.steps, work);
    expect(calls.finished).toEqual(["failed:ERR4001,ERR4001"]);
    expect(driven.now()).toBe(1_800_000); // two full timeouts on the simulated clock
    // load + (submit, poll request, wait, collect) per provider + finish
    expect(driven.ids).toHaveLength(10);
    expect(driven.ids.length).toBeLessThanOrEqual(30);
    expect(driven.sent.map((event) => [event.name, event.id])).toEqual([
      ["provider/job.accepted", "provider-poll:replicate:replicate-job"],
      ["provider/job.accepted", "provider-poll:fal:fal-job"],
    ]);
  });

  it("wakes on the result event and finishes without waiting out the timeout", async () => {
    const driven = drivenSteps({ resultAt: (predictionId) => (predictionId === "fal-job" ? 1_200_000 : null) });
    const { work, calls } = slowProviders(driven.now, { fal: 1_200_000 });
    await runProviderChain("gen-2", driven.steps, work);
    expect(calls.finished).toEqual(["succeeded:2"]);
    expect(driven.now()).toBe(1_200_000); // 900 s on the first provider, then 300 s on the second
    // Each first wait is registered with the poller's start, before its event is sent: the
    // poller's result cannot come before the wait that takes it.
    expect(driven.ids).toEqual([
      "load",
      "attempt-1-replicate-submit",
      "attempt-1-result-1",
      "attempt-1-poll",
      "attempt-1-replicate-collect-1",
      "attempt-2-fal-submit",
      "attempt-2-result-1",
      "attempt-2-poll",
      "attempt-2-fal-collect-1",
      "finish-succeeded",
    ]);
  });

  it("skips the load step when the run's event names the providers", async () => {
    const driven = drivenSteps({ resultAt: (predictionId) => (predictionId === "replicate-job" ? 60_000 : null) });
    const { work, calls } = slowProviders(driven.now, { replicate: 60_000 });
    await runProviderChain("gen-4", driven.steps, work, ["replicate", "fal"]);
    expect(calls.finished).toEqual(["succeeded:1"]);
    expect(driven.ids).toEqual([
      "attempt-1-replicate-submit",
      "attempt-1-result-1",
      "attempt-1-poll",
      "attempt-1-replicate-collect-1",
      "finish-succeeded",
    ]);
  });

  it("ends without a terminal step when the generation left flight before its first submit", async () => {
    const driven = drivenSteps({});
    const { work, calls } = slowProviders(driven.now, {});
    const result = await runProviderChain("gen-5", driven.steps, { ...work, submit: async () => ({ outcome: "abandoned" }) }, [
      "replicate",
      "fal",
    ]);
    expect(result).toEqual({ skipped: "left flight during the run" });
    expect(driven.ids).toEqual(["attempt-1-replicate-submit"]);
    expect(calls.finished).toEqual([]);
  });

  it("ends with the submit step when a synchronous provider's success was finished in it", async () => {
    const driven = drivenSteps({});
    const { work, calls } = slowProviders(driven.now, {});
    const result = await runProviderChain(
      "gen-6",
      driven.steps,
      { ...work, submit: async () => ({ outcome: "finished", succeeded: true }) },
      ["local", "local-backup"],
    );
    expect(result).toEqual({ succeeded: true });
    expect(driven.ids).toEqual(["attempt-1-local-submit"]);
    expect(calls.finished).toEqual([]);
  });

  it("ends its provider wait at the generation's Cancel-After deadline and cancels it there", async () => {
    const driven = drivenSteps({ resultAt: (predictionId) => (predictionId === "replicate-job" ? 30_000 : null) });
    const { work, calls } = slowProviders(driven.now, { replicate: 30_000 });
    const result = await runProviderChain("gen-7", driven.steps, work, ["replicate", "fal"], new Date(5_000).toISOString());
    expect(result).toEqual({ skipped: "deadline passed" });
    expect(calls.finished).toEqual(["expired@5000"]);
    expect(driven.ids).toEqual(["attempt-1-replicate-submit", "attempt-1-result-1", "attempt-1-poll", "attempt-1-deadline"]);
  });

  it("reads the deadline in its load step, and a deadline after the model's timeout changes nothing", async () => {
    const driven = drivenSteps({});
    const { work, calls } = slowProviders(driven.now, {});
    await runProviderChain("gen-8", driven.steps, {
      ...work,
      load: async () => ({ inFlight: true, providers: ["replicate"], deadlineAt: new Date(3_600_000).toISOString() }),
    });
    expect(calls.finished).toEqual(["failed:ERR4001"]);
    expect(driven.now()).toBe(900_000);
  });

  it("bounds the waits of a job that result events keep waking while it runs", async () => {
    // A stale or forged callback for the job at every wait: collect finds it still running.
    const driven = drivenSteps({ resultAt: () => 0 });
    const { work, calls } = slowProviders(driven.now, {});
    await runProviderChain("gen-3", driven.steps, work);
    expect(calls.collect).toBe(2 * MAX_WAKES);
    expect(calls.finished).toEqual(["failed:ERR4001,ERR4001"]);
    expect(driven.ids.length).toBeLessThanOrEqual(2 + 2 * (2 + 2 * MAX_WAKES));
  });

  it("polls a 900 s job in well under Inngest's 1,000 steps", () => {
    const delays = pollDelaysSeconds(900);
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBeGreaterThanOrEqual(900);
    expect(delays[0]).toBe(1);
    expect(Math.max(...delays)).toBe(30);
    // a sleep and a poll per entry
    expect(2 * delays.length).toBeLessThanOrEqual(100);
    expect(2 * pollDelaysSeconds(3600).length).toBeLessThan(1000);
  });
});

import { describe, expect, it } from "vitest";
import { RunQueue } from "@/server/jobs/executor/run-queue";

// The executor's queue: one lane per function served in turn, so a backlog of one function never
// holds up another; within a lane one queue per concurrency key (the account) served in turn; a
// function's own and its keyed concurrency limits. Drives are held open by the test, so what is
// asserted is order, never timing.

function harness(concurrency: number, limits: Record<string, number> = {}, keyLimits: Record<string, number> = {}) {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const queue = new RunQueue(
    concurrency,
    (runId) =>
      new Promise<void>((resolve) => {
        started.push(runId);
        release.set(runId, resolve);
      }),
    { ofFunction: (functionId) => limits[functionId] ?? null, ofKey: (functionId) => keyLimits[functionId] ?? null },
  );
  const finish = async (runId: string) => {
    release.get(runId)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, finish };
}

describe("RunQueue", () => {
  it("starts a generation queued behind 500 webhook deliveries at the next free slot", async () => {
    const { queue, started, finish } = harness(16);
    for (let i = 0; i < 500; i += 1) queue.add(`delivery-${i}`, "webhook-delivery");
    queue.add("generation", "run-generation");
    expect(started).toHaveLength(16);
    expect(started.every((id) => id.startsWith("delivery-"))).toBe(true);
    await finish("delivery-0");
    // The first slot that frees goes to the other function's lane, not to delivery-16.
    expect(started[16]).toBe("generation");
    expect(queue.waiting).toBe(500 - 16);
  });

  it("serves lanes in turn and each lane first in, first out", async () => {
    const { queue, started, finish } = harness(1);
    for (const id of ["a1", "a2", "a3"]) queue.add(id, "a");
    for (const id of ["b1", "b2"]) queue.add(id, "b");
    queue.add("c1", "c");
    for (let i = 0; i < 6; i += 1) await finish(started[i] as string);
    expect(started).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("keeps a function under its own concurrency limit and gives the other slots to the rest", async () => {
    const { queue, started, finish } = harness(16, { "webhook-delivery": 12 });
    for (let i = 0; i < 100; i += 1) queue.add(`delivery-${i}`, "webhook-delivery");
    expect(started).toHaveLength(12);
    queue.add("generation", "run-generation");
    expect(started).toHaveLength(13);
    expect(started[12]).toBe("generation");
    await finish("delivery-0");
    expect(started).toHaveLength(14);
    expect(started.filter((id) => id.startsWith("delivery-"))).toHaveLength(13);
  });

  it("drives a run asked for again during its drive once more afterwards, never twice at once", async () => {
    const { queue, started, finish } = harness(4);
    queue.add("r", "f");
    queue.add("r", "f");
    expect(started).toEqual(["r"]);
    await finish("r");
    expect(started).toEqual(["r", "r"]);
  });

  it("starts one account's generation ahead of another account's backlog of 300 (the sweeper's re-send)", async () => {
    const { queue, started, finish } = harness(2);
    for (let i = 0; i < 300; i += 1) queue.add(`a-${i}`, "run-generation", "account-a");
    queue.add("b-0", "run-generation", "account-b");
    expect(started).toEqual(["a-0", "a-1"]);
    await finish("a-0");
    expect(started[2]).toBe("b-0");
    await finish("a-1");
    expect(started[3]).toBe("a-2");
  });

  it("serves the keys of a lane in turn, each first in, first out, and a run without a key as one more key", async () => {
    const { queue, started, finish } = harness(1);
    for (const id of ["a1", "a2", "a3"]) queue.add(id, "f", "a");
    for (const id of ["b1", "b2"]) queue.add(id, "f", "b");
    queue.add("n1", "f");
    for (let i = 0; i < 6; i += 1) await finish(started[i] as string);
    expect(started).toEqual(["a1", "b1", "n1", "a2", "b2", "a3"]);
  });

  it("keeps a key under its function's keyed limit and gives the free slots to other keys and functions", async () => {
    const { queue, started, finish } = harness(16, {}, { "run-generation": 2 });
    for (let i = 0; i < 5; i += 1) queue.add(`a-${i}`, "run-generation", "account-a");
    queue.add("b-0", "run-generation", "account-b");
    queue.add("delivery", "webhook-delivery");
    expect(started).toEqual(["a-0", "a-1", "b-0", "delivery"]);
    await finish("a-0");
    expect(started).toEqual(["a-0", "a-1", "b-0", "delivery", "a-2"]);
    expect(queue.waiting).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { RunQueue } from "@/server/inngest/executor/run-queue";

// The executor's queue: one lane per function served in turn, so a backlog of one function never
// holds up another, and a function's own concurrency limit. Drives are held open by the test, so
// what is asserted is order, never timing.

function harness(concurrency: number, limits: Record<string, number> = {}) {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const queue = new RunQueue(
    concurrency,
    (runId) =>
      new Promise<void>((resolve) => {
        started.push(runId);
        release.set(runId, resolve);
      }),
    (functionId) => limits[functionId] ?? null,
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
});

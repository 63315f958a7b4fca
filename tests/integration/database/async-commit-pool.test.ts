import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { asyncCommitPool, disconnectDb, sqlPool } from "@/server/base/db";
import { postgresCounterStore } from "@/server/rate-limit/counter-store";

// Rate-limit counters and request-log batches commit without waiting for the disk; everything
// else (Prisma, credits, keys, runs) on the main pool keeps synchronous commits. A counter's commit
// is still seen at once by every other connection, and concurrent counts stay exact.

afterAll(() => disconnectDb());

const setting = async (pool: ReturnType<typeof sqlPool>) =>
  (await pool.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!.synchronous_commit;

describe("the async-commit pool", () => {
  it("is the only pool whose connections commit without waiting for the WAL flush", async () => {
    // Several at once, so more than one connection of each pool answers.
    const [asyncSettings, mainSettings] = await Promise.all([
      Promise.all(Array.from({ length: 6 }, () => setting(asyncCommitPool()))),
      Promise.all(Array.from({ length: 6 }, () => setting(sqlPool()))),
    ]);
    expect(new Set(asyncSettings)).toEqual(new Set(["off"]));
    expect(mainSettings).not.toContain("off");
  });

  it("counts exactly under 300 concurrent increments, each count seen at once on the main pool", async () => {
    const store = postgresCounterStore();
    const bucket = `async-commit-test:${randomUUID()}`;
    const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const counts = await Promise.all(Array.from({ length: 300 }, () => store.increment(bucket, windowStart, 60)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
    expect(await store.peek(bucket, windowStart)).toBe(300);
    const { rows } = await sqlPool().query<{ count: number }>("SELECT count FROM rate_limit_counter WHERE bucket = $1", [bucket]);
    expect(rows).toEqual([{ count: 300 }]);
    await sqlPool().query("DELETE FROM rate_limit_counter WHERE bucket = $1", [bucket]);
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb, sqlPool } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";

// Regression (R1 drill, 4,000 concurrent creates): with every pooled connection busy for a few
// seconds, background work failed with "Unable to start a transaction in the given time" after
// Prisma's default 2 s wait. A transaction now waits its turn (up to 10 s).

afterAll(() => disconnectDb());

describe("a transaction when the pool is saturated", () => {
  it("waits for a free connection past 2 s instead of failing", async () => {
    const pool = sqlPool();
    await db.$queryRaw`SELECT 1`; // the Prisma client is up before the pool fills
    const size = pool.options.max ?? 20;
    // Every connection of this process's pool held for 3 s.
    const holders = Array.from({ length: size }, () => pool.query("SELECT pg_sleep(3)"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.waitingCount + pool.totalCount).toBeGreaterThanOrEqual(size);

    const started = performance.now();
    const value = await inTransaction(async (tx) => (await tx.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one`)[0]!.one);
    const waitedMs = performance.now() - started;
    expect(value).toBe(1);
    expect(waitedMs).toBeGreaterThan(2_000); // it did wait past Prisma's default
    await Promise.all(holders);
  });
});

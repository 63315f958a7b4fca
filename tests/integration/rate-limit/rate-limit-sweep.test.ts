import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, type Tx } from "@/server/base/db";
import { functions } from "@/server/jobs/functions";
import { sweepExpiredRateLimitWindows } from "@/server/rate-limit/sweep-expired-windows";

// The sweep runs as a cron with its own clock; the request path never deletes. Each case writes
// its rows and sweeps inside one transaction that it rolls back, so neither the app server's own
// cron (wall clock, same database) nor the other suites' windows can touch what it counts.

const minute = 60_000;
const past = Date.UTC(2001, 0, 1, 12, 0, 0);

class Rollback extends Error {}

async function insideRolledBackTransaction(body: (tx: Tx) => Promise<void>) {
  await db
    .$transaction(async (tx) => {
      await body(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
}

async function write(tx: Tx, bucket: string, windowStart: Date) {
  await tx.rateLimitCounter.create({ data: { bucket, windowStart, count: 1 } });
}

async function countOf(tx: Tx, bucket: string, windowStart: Date) {
  const row = await tx.rateLimitCounter.findUnique({ where: { bucket_windowStart: { bucket, windowStart } } });
  return row?.count ?? null;
}

describe("sweepExpiredRateLimitWindows", () => {
  it("deletes windows older than ten minutes before its clock and keeps the rest", async () => {
    await insideRolledBackTransaction(async (tx) => {
      const bucket = `general:${randomUUID()}`;
      const old = new Date(past - 11 * minute);
      const edge = new Date(past - 10 * minute);
      const recent = new Date(past - 9 * minute);
      const current = new Date(past);
      for (const windowStart of [old, edge, recent, current]) await write(tx, bucket, windowStart);

      // Only rows older than year 2001 minus ten minutes qualify: this case's own `old` row.
      expect(await sweepExpiredRateLimitWindows(tx, { now: past })).toEqual({ deleted: 1 });
      expect(await countOf(tx, bucket, old)).toBeNull();
      expect(await countOf(tx, bucket, edge)).toBe(1);
      expect(await countOf(tx, bucket, recent)).toBe(1);
      expect(await countOf(tx, bucket, current)).toBe(1);
    });
  });

  it("runs as a cron function the executor serves", () => {
    const sweep = functions.find((fn) => fn.id().endsWith("rate-limit-sweep"));
    expect(sweep).toBeDefined();
  });
});

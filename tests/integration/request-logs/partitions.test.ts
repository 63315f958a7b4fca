import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb, sqlPool } from "@/server/base/db";
import { ensureRequestLogWeeksAhead, requestLogPartitions, WEEKS_AHEAD } from "@/server/request-logs/partitions";
import { createTestAccount } from "@/tests/support/fixtures";
import { seedRequestLogs } from "@/tests/support/request-logs";

// The request log's weeks exist before a row needs one: made ahead at start and hourly, and a row
// whose week is missing all the same (a clock far off, a row written as of another moment) makes
// it and is kept. There is no DEFAULT partition to fall back on.

afterAll(disconnectDb);

const DAY = 86_400_000;

/** The Monday 00:00 UTC that starts the week holding `at`. */
function weekOf(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
}

const nameOf = (week: Date) => `request_log_row_${week.toISOString().slice(0, 10).replaceAll("-", "")}`;

describe("request log weeks", () => {
  it("are made from last week to the weeks ahead, each Monday to Monday, with no DEFAULT partition", async () => {
    const now = new Date();
    await ensureRequestLogWeeksAhead(sqlPool(), now);
    const weeks = await requestLogPartitions(sqlPool());
    const byName = new Map(weeks.map((week) => [week.name, week]));
    for (
      let week = weekOf(new Date(now.getTime() - 7 * DAY));
      week <= new Date(now.getTime() + WEEKS_AHEAD * 7 * DAY);
      week = new Date(week.getTime() + 7 * DAY)
    ) {
      expect(byName.get(nameOf(week)), nameOf(week)).toMatchObject({
        since: week,
        until: new Date(week.getTime() + 7 * DAY),
        pending: false,
      });
    }
    const fallback = await sqlPool().query(
      "SELECT count(*)::int AS count FROM pg_partition_tree('request_log_row') t JOIN pg_class c ON c.oid = t.relid WHERE pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT'",
    );
    expect(fallback.rows[0].count).toBe(0);
    // Idempotent: nothing more to make.
    expect(await ensureRequestLogWeeksAhead(sqlPool(), now)).toBe(0);
  });

  it("are made by the writer for a row whose week is missing, also by two writers at once", async () => {
    const { accountId } = await createTestAccount();
    // Weeks no other suite writes in, and none made before (a run on a database kept from an earlier one).
    const far = new Date(Date.UTC(2040, 0, 4, 10, 0, 0, 250) + Math.floor(Math.random() * 2000) * 7 * DAY);
    const farther = new Date(far.getTime() + 10 * 7 * DAY - 1);
    const names = [nameOf(weekOf(far)), nameOf(weekOf(farther))];
    for (const name of names) await sqlPool().query(`DROP TABLE IF EXISTS "${name}"`);
    expect((await requestLogPartitions(sqlPool())).filter((week) => names.includes(week.name))).toEqual([]);

    const [one] = await seedRequestLogs([{ accountId, createdAt: far, endpoint: "/v1/status" }]);
    const [two, three] = await Promise.all([
      seedRequestLogs([{ accountId, createdAt: farther, endpoint: "/v1/usage" }]),
      seedRequestLogs([{ accountId, createdAt: farther, endpoint: "/v1/content/list" }]),
    ]);
    expect((await requestLogPartitions(sqlPool())).filter((week) => names.includes(week.name)).map((week) => week.name)).toEqual(names);
    const kept = await db.requestLog.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });
    expect(kept.map((row) => row.id).sort()).toEqual([one, ...two, ...three].sort());
    expect(kept.map((row) => row.createdAt.toISOString())).toEqual([far, farther, farther].map((at) => at.toISOString()));
  });
});

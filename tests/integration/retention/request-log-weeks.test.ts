import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb, sqlPool } from "@/server/base/db";
import { ensureRequestLogPartitions, requestLogPartitions } from "@/server/request-logs/partitions";
import { REQUEST_LOG_BATCHES_PER_PASS } from "@/server/retention/purge-request-logs";
import { purgeRequestLogWeeks } from "@/server/retention/purge-request-log-weeks";
import { runRetention } from "@/server/retention/run-retention";
import { seedRequestLogs } from "@/tests/support/request-logs";
import { futureNow, secondsBefore, seedAccount } from "@/tests/support/retention";
import { until } from "@/tests/support/until";

// Retention of the request log: whole weeks go once every row in them is older than the longest
// plan window (a year), without stopping a read that is running (it keeps its rows; reads that
// start later no longer see them); inside the windows, rows older than the account's go a bounded
// number per pass, and then the callers and routes only they used.

afterAll(disconnectDb);

const DAY = 86_400_000;
// A week of its own, long before any other suite's rows.
const WEEK = new Date("2003-03-03T00:00:00Z");
const WEEK_NAME = "request_log_row_20030303";

async function rowsInWeek(client: pg.ClientBase | pg.Pool) {
  const { rows } = await client.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM request_log_row WHERE created_at >= $1 AND created_at < $1::timestamptz + interval '7 days'",
    [WEEK.toISOString()],
  );
  return rows[0]!.count;
}

describe("request log weeks past the longest window", () => {
  it("are detached and dropped while a read runs, which keeps its rows; the callers and routes only they used go", async () => {
    const accountId = await seedAccount("enterprise");
    await ensureRequestLogPartitions(sqlPool(), WEEK, WEEK);
    const at = (hours: number) => new Date(WEEK.getTime() + hours * 3600_000);
    await seedRequestLogs([
      { accountId, createdAt: at(30), endpoint: "/v1/only-in-2003", ipHash: "2003".repeat(16) },
      { accountId, createdAt: at(31), endpoint: "/v1/only-in-2003", ipHash: "2003".repeat(16) },
      { accountId, createdAt: at(100), endpoint: "/v1/status" },
    ]);

    const reader = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await reader.connect();
    try {
      await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      expect(await rowsInWeek(reader)).toBe(3);

      // As of a year and a day after the week's end: it is past the longest window.
      const dropping = purgeRequestLogWeeks(new Date(WEEK.getTime() + 7 * DAY + 366 * DAY));
      await until(async () => (await requestLogPartitions(sqlPool())).find((week) => week.name === WEEK_NAME)?.pending, "detach pending");
      // The running read still has its rows; one that starts now no longer sees them, and fails nothing.
      expect(await rowsInWeek(reader)).toBe(3);
      expect(await rowsInWeek(sqlPool())).toBe(0);
      await reader.query("COMMIT");

      expect(await dropping).toBe(3);
    } finally {
      await reader.end();
    }
    expect((await requestLogPartitions(sqlPool())).map((week) => week.name)).not.toContain(WEEK_NAME);
    expect(await db.requestLog.count({ where: { accountId } })).toBe(0);
    const left = await sqlPool().query(
      `SELECT (SELECT count(*)::int FROM request_log_route t JOIN request_log_account a USING (account_no) WHERE a.account_id = $1) AS routes,
              (SELECT count(*)::int FROM request_log_caller WHERE ip_hash = $2) AS callers`,
      [accountId, "2003".repeat(16)],
    );
    expect(left.rows[0]).toEqual({ routes: 0, callers: 0 });
  });

  it("are finished by the next pass when a detach was cut short", async () => {
    const week = new Date("2002-06-03T00:00:00Z");
    const name = "request_log_row_20020603";
    await ensureRequestLogPartitions(sqlPool(), week, week);
    const reader = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const detacher = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await Promise.all([reader.connect(), detacher.connect()]);
    try {
      await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await reader.query("SELECT count(*) FROM request_log_row");
      await detacher.query("SET lock_timeout = '200ms'");
      await expect(detacher.query(`ALTER TABLE request_log_row DETACH PARTITION "${name}" CONCURRENTLY`)).rejects.toMatchObject({
        code: "55P03",
      });
      await reader.query("COMMIT");
    } finally {
      await Promise.all([reader.end(), detacher.end()]);
    }
    expect((await requestLogPartitions(sqlPool())).find((partition) => partition.name === name)?.pending).toBe(true);
    await purgeRequestLogWeeks(new Date(week.getTime() + 7 * DAY + 366 * DAY));
    expect((await requestLogPartitions(sqlPool())).map((partition) => partition.name)).not.toContain(name);
  });

  it("are kept while a row in them is inside the longest window", async () => {
    await ensureRequestLogPartitions(sqlPool(), WEEK, WEEK);
    // The week ends 2003-03-10: a year after that, to the millisecond, it is not yet older.
    expect(await purgeRequestLogWeeks(new Date(WEEK.getTime() + 7 * DAY + 365 * DAY - 1))).toBe(0);
    expect((await requestLogPartitions(sqlPool())).map((week) => week.name)).toContain(WEEK_NAME);
  });
});

describe("request log rows past the account's window", () => {
  it("go a bounded number of batches a pass, the oldest first, then the callers and routes only they used", async () => {
    const now = futureNow();
    const accountId = await seedAccount("free");
    const batchSize = 3;
    const bound = REQUEST_LOG_BATCHES_PER_PASS * batchSize;
    const old = Array.from({ length: bound + 5 }, (_, index) => ({
      accountId,
      // More than a minute older than the window: last_seen_at may lag a minute (forget-unused-entries.ts).
      createdAt: secondsBefore(now, DAY + 120_000 + (bound + 5 - index) * 1000),
      endpoint: "/v1/old-only",
      ipHash: "0ld".padEnd(64, "0"),
    }));
    const [young] = await seedRequestLogs([{ accountId, createdAt: secondsBefore(now, DAY - 1000), endpoint: "/v1/status" }]);
    await seedRequestLogs(old);

    const first = await runRetention(db, accountScope(accountId), { now, batchSize });
    expect(first.removed.request_logs).toBe(bound);
    // The oldest went first: the five youngest of the old rows are left, and the young one.
    const left = await db.requestLog.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });
    expect(left.map((row) => row.createdAt.getTime())).toEqual([
      ...old.slice(bound).map((row) => row.createdAt.getTime()),
      left.at(-1)!.createdAt.getTime(),
    ]);
    expect(left.at(-1)?.id).toBe(young);

    const second = await runRetention(db, accountScope(accountId), { now, batchSize });
    expect(second.removed.request_logs).toBe(5);
    expect((await db.requestLog.findMany({ where: { accountId } })).map((row) => row.id)).toEqual([young]);
    const entries = await sqlPool().query(
      `SELECT (SELECT array_agg(t.endpoint) FROM request_log_route t WHERE t.account_no = a.account_no) AS routes,
              (SELECT array_agg(c.ip_hash) FROM request_log_caller c JOIN request_log_key k USING (key_no) WHERE k.account_no = a.account_no) AS callers
         FROM request_log_account a WHERE a.account_id = $1`,
      [accountId],
    );
    expect(entries.rows).toEqual([{ routes: ["/v1/status"], callers: ["h"] }]);
  });
});

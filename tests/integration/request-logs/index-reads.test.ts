import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { Prisma } from "@/server/base/generated/prisma/client";
import { requestLogPageQuery, type RequestLogPageInput } from "@/server/request-logs/request-log-page-query";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { seedRequestLogs } from "@/tests/support/request-logs";

// Each read of the log is a range of one index, never a scan of the table: the account's log
// newest first (the dashboard's page, and each of its filters), the key's (the key page), and an
// account's raw rows between two instants (usage), through request_log_between(). Plans are asked
// with sequential scans priced out, so a read that could not use its index would show one.

afterAll(disconnectDb);

type PlanNode = { "Node Type": string; "Index Name"?: string; "Index Cond"?: string; "Relation Name"?: string; Plans?: PlanNode[] };

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function planOf(query: Prisma.Sql): Promise<PlanNode[]> {
  const [plan] = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
    return tx.$queryRaw<Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>>`EXPLAIN (FORMAT JSON) ${query}`;
  });
  return nodes(plan!["QUERY PLAN"][0]!.Plan);
}

/** Each week of request_log_row is read through `index`, bounded in seconds below (and above, when `upper`). */
function expectRangeScans(plan: PlanNode[], index: "account" | "key", bounds: { upper: boolean }) {
  const tables = plan.filter((node) => node["Relation Name"]?.startsWith("request_log_row_"));
  expect(tables.length).toBeGreaterThan(0);
  for (const table of tables) expect(["Index Scan", "Index Scan Backward", "Bitmap Heap Scan"]).toContain(table["Node Type"]);
  const scans = plan.filter((node) => node["Index Name"]?.startsWith("request_log_row_"));
  expect(scans.length).toBeGreaterThan(0);
  for (const scan of scans) {
    expect(scan["Index Name"]).toMatch(index === "account" ? /_account_no_request_log_second_idx$/ : /_key_no_request_log_second_idx$/);
    expect(scan["Index Cond"]).toContain(index === "account" ? "(account_no = " : "(key_no = ");
    expect(scan["Index Cond"]).toMatch(/::integer >= /);
    if (bounds.upper) expect(scan["Index Cond"]).toMatch(/::integer <= /);
  }
}

describe("request log reads", () => {
  it("are each a range of the account's or the key's index", async () => {
    const { accountId } = await createTestAccount();
    const key = await createTestKey(accountId);
    const since = new Date(Date.now() - 3 * 86_400_000);
    const to = new Date(Date.now() - 86_400_000);
    await seedRequestLogs(
      Array.from({ length: 80 }, (_, index) => ({
        accountId,
        apiKeyId: key.apikey_id,
        createdAt: new Date(since.getTime() + index * 3_600_000),
      })),
    );
    const page = (input: Partial<RequestLogPageInput>) => planOf(requestLogPageQuery({ accountId, since, limit: 26, ...input }));

    expectRangeScans(await page({}), "account", { upper: false });
    expectRangeScans(await page({ after: { createdAt: to, id: 7 } }), "account", { upper: true });
    expectRangeScans(await page({ to }), "account", { upper: true });
    expectRangeScans(await page({ status: { gte: 400, lt: 500 } }), "account", { upper: false });
    expectRangeScans(await page({ endpoint: "/v1/status" }), "account", { upper: false });
    expectRangeScans(await page({ errorCode: 1002, to }), "account", { upper: true });
    expectRangeScans(await page({ keyId: key.apikey_id }), "key", { upper: false });
    expectRangeScans(await page({ keyId: key.apikey_id, to, status: { gte: 200, lt: 300 } }), "key", { upper: true });
    expectRangeScans(
      await planOf(
        Prisma.sql`SELECT * FROM request_log_between(${accountId}::uuid, ${since.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)`,
      ),
      "account",
      { upper: true },
    );
    const between = await db.$queryRaw<Array<{ count: number }>>`
      SELECT count(*)::int AS count FROM request_log_between(${accountId}::uuid, ${since.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)`;
    // Hourly rows from `since`: the first 49 reach `to` (both ends included).
    expect(between[0]?.count).toBe(49);
  });
});

import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "@/server/activity/list-activity";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { env } from "@/server/base/env";
import { Prisma, PrismaClient } from "@/server/base/generated/prisma/client";
import { encodePositionCursor } from "@/server/base/pagination/position-cursor";
import { listLedger } from "@/server/billing/billing-lists";
import { browseGenerations } from "@/server/generations/records/dashboard-list";
import { generationsAfter, pageAfterStatement } from "@/server/generations/records/list-after";
import { createTestAccount } from "@/tests/support/fixtures";

// The lists' pages deep in a long history, as PostgreSQL runs them: /v1's starting_after statement
// and the statements Prisma sends for the dashboard's generations, activity and ledger cursors
// (recorded on their way to the pool) are one index range scan that starts at the cursor's position:
// no Sort node, and the scan reads about a page of rows, not every newer one.

const ROWS = 1_200;
const DEEP = 900;

class RecordingPool extends pg.Pool {
  readonly statements: Array<{ text: string; values: unknown[] }> = [];
  override query(...args: unknown[]): never {
    const config = args[0] as { text?: string; values?: unknown[] } | string;
    if (typeof config === "object" && config.text) this.statements.push({ text: config.text, values: config.values ?? [] });
    return (super.query as (...rest: unknown[]) => never)(...args);
  }
}

const pool = new RecordingPool({ connectionString: env().DATABASE_URL, max: 2 });
const recording = new PrismaClient({ adapter: new PrismaPg(pool) });
const explainer = new pg.Pool({ connectionString: env().DATABASE_URL, max: 1 });
let accountId = "";

type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The plan with index scans preferred: on this small test table, whose rows sit together on a few
 * pages, the planner may rather read them all by bitmap and sort them, which a real account's rows,
 * spread over the heap, would not invite. What is checked is that the index serves the order and the
 * position: with it, no sort is left and the scan starts at the cursor.
 */
async function explain(text: string, values: unknown[]) {
  const client = await explainer.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL enable_seqscan = off");
    await client.query("SET LOCAL enable_bitmapscan = off");
    const { rows } = await client.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
    return nodesOf(rows[0]!["QUERY PLAN"][0]!.Plan);
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

/** The plan is a range scan of `index` from the position: no sort, about one page of rows read. */
function expectRangeScan(nodes: PlanNode[], index: string, limit: number) {
  expect(nodes.map((node) => node["Node Type"])).not.toContain("Sort");
  expect(nodes.map((node) => node["Node Type"])).not.toContain("Incremental Sort");
  const scan = nodes.find((node) => node["Index Name"] === index);
  expect(scan, JSON.stringify(nodes)).toBeDefined();
  expect(scan!["Node Type"]).toMatch(/^Index (Only )?Scan$/);
  // The rows the scan touched: the page, one more, and at most the position's timestamp twins.
  expect((scan!["Actual Rows"] ?? 0) + (scan!["Rows Removed by Filter"] ?? 0)).toBeLessThanOrEqual(limit + 1 + 3);
}

/** The statement Prisma sent for `table` while `run` ran. */
async function recorded(table: string, run: () => Promise<unknown>) {
  pool.statements.length = 0;
  await run();
  const statement = pool.statements.find((entry) => entry.text.includes(`FROM "public"."${table}"`) && entry.text.includes("ORDER BY"));
  expect(statement, pool.statements.map((entry) => entry.text).join("\n")).toBeDefined();
  return statement!;
}

/** The position of the `index`th newest row of the account's `table`. */
async function positionAt(table: "generation" | "ledger_entry" | "activity_event", index: number) {
  const rows = await db.$queryRaw<Array<{ id: string; createdAt: Date }>>(
    Prisma.sql`SELECT id, created_at AS "createdAt" FROM ${Prisma.raw(`"${table}"`)} WHERE account_id = ${accountId}::uuid
               ORDER BY created_at DESC, id DESC OFFSET ${index} LIMIT 1`,
  );
  return rows[0]!;
}

beforeAll(async () => {
  ({ accountId } = await createTestAccount());
  // Three rows a millisecond, so a position has timestamp twins.
  const base = Date.now() - 86_400_000;
  await db.$executeRaw`
    INSERT INTO generation (id, account_id, region, media_kind, model_identifier, status, estimated_cost, provider_order, created_at, updated_at)
    SELECT gen_random_uuid(), ${accountId}::uuid, 'us', 'image', 'darkroom/lumen-image', 'succeeded', 0.002, '{local}',
           to_timestamp((${base}::bigint - i / 3) / 1000.0), now()
    FROM generate_series(1, ${ROWS}) AS i`;
  await db.$executeRaw`
    INSERT INTO ledger_entry (id, account_id, type, amount, balance_after, generation_id, description, created_at)
    SELECT gen_random_uuid(), ${accountId}::uuid, 'reserve', 0.002, 1, gen_random_uuid(), 'seeded', to_timestamp((${base}::bigint - i / 3) / 1000.0)
    FROM generate_series(1, ${ROWS}) AS i`;
  await db.$executeRaw`
    INSERT INTO activity_event (id, account_id, actor, category, action, description, created_at)
    SELECT gen_random_uuid(), ${accountId}::uuid, 'system', 'credit', 'credit.seeded', 'seeded', to_timestamp((${base}::bigint - i / 3) / 1000.0)
    FROM generate_series(1, ${ROWS}) AS i`;
  await db.$executeRaw`ANALYZE generation, ledger_entry, activity_event`;
});

afterAll(async () => {
  await recording.$disconnect();
  await pool.end();
  await explainer.end();
  await disconnectDb();
});

describe("keyset pages deep in a long history", () => {
  it("/v1 starting_after: one range scan of generation (account_id, created_at desc, id desc), no sort", async () => {
    const anchor = await positionAt("generation", DEEP);
    const statement = pageAfterStatement(accountScope(accountId), anchor.id, 51);
    expectRangeScan(await explain(statement.text, statement.values), "generation_account_id_created_at_id_idx", 51);

    const page = await generationsAfter(db, accountScope(accountId), { startingAfter: anchor.id, limit: 50 });
    expect(page.hasMore).toBe(true);
    const expected = await db.generation.findMany({
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: DEEP + 1,
      take: 50,
      select: { id: true },
    });
    expect(page.rows.map((row) => row.id)).toEqual(expected.map((row) => row.id));
  });

  it("the dashboard's generations, activity and ledger cursors: one range scan each, no sort", async () => {
    const cursorAt = async (table: "generation" | "ledger_entry" | "activity_event") => encodePositionCursor(await positionAt(table, DEEP));

    const generations = await recorded("generation", async () =>
      browseGenerations(recording, accountId, { limit: 24, cursor: await cursorAt("generation") }),
    );
    expectRangeScan(await explain(generations.text, generations.values), "generation_account_id_created_at_id_idx", 25);

    const activity = await recorded("activity_event", async () =>
      listActivity(recording, accountScope(accountId), { limit: 50, cursor: await cursorAt("activity_event") }),
    );
    expectRangeScan(await explain(activity.text, activity.values), "activity_event_account_id_created_at_id_idx", 51);

    const ledger = await recorded("ledger_entry", async () =>
      listLedger(recording, accountScope(accountId), { limit: 25, cursor: await cursorAt("ledger_entry") }),
    );
    expectRangeScan(await explain(ledger.text, ledger.values), "ledger_entry_account_id_created_at_id_idx", 26);
  });
});

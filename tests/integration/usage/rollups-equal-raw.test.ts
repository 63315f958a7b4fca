import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { insertRequestLogs } from "@/server/request-logs/insert-request-logs";
import { requestLogRow } from "@/tests/support/request-logs";
import { seededRandom } from "@/server/providers/local/seeded-random";
import { purgeAccountData } from "@/server/retention/run-retention";
import { foldUsage } from "@/server/usage/rollups/fold-usage";
import { usageBuckets } from "@/server/usage/rollups/usage-buckets";
import { attemptCounts, generationCounts, ledgerCounts, requestCounts } from "@/server/usage/rollups/usage-counts";
import { createTestAccount } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";

// The usage counters (server/usage/rollups) against a plain count of the raw rows: random
// histories written in random statements, random updates, folds at random moments, retention
// purges, and random windows to the millisecond. Then a transaction killed between its raw rows
// and its commit, and a fold killed midway: nothing counted twice, nothing lost.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REGIONS = ["us", "eu"] as const;
const ENDPOINTS = ["/v1/generate/image", "/v1/content/list", "/v1/usage", "/v1/content/{generation_id}"];
const STATES = ["pending", "processing", "succeeded", "failed", "canceled"] as const;
const OUTCOMES = ["running", "succeeded", "failed", "canceled", "discarded"] as const;
const PROVIDERS = ["replicate", "fal", "bfl"];

type Queryable = Pick<pg.Pool, "query">;
let pool: pg.Pool;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
});
afterAll(async () => {
  await pool.end();
  await disconnectDb();
});

/** Seeded, so a failing seed can be replayed. */
function randomFrom(seed: number) {
  const random = seededRandom(seed);
  return {
    next: random.next,
    int: (below: number) => random.int(0, below - 1),
    pick: <T>(items: readonly T[]) => items[random.int(0, items.length - 1)]!,
  };
}

type Random = ReturnType<typeof randomFrom>;
const iso = (ms: number) => new Date(ms).toISOString();

async function writeRequests(accountId: string, random: Random, now: number, count: number, into: Queryable = pool) {
  const rows = Array.from({ length: count }, () => {
    const statusCode = random.pick([200, 200, 201, 400, 402, 404, 429, 500, 503]);
    return requestLogRow({
      accountId,
      region: random.pick(REGIONS),
      endpoint: random.pick(ENDPOINTS),
      statusCode,
      errorCode: statusCode >= 400 ? random.pick(["ERR1001", "ERR1004", "ERR5000"]) : null,
      createdAt: new Date(now - random.int(9 * DAY)),
    });
  });
  await insertRequestLogs(into, rows);
}

async function writeGenerations(accountId: string, random: Random, now: number, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, () => ({
    region: random.pick(REGIONS),
    status: random.pick(STATES),
    cost: (random.int(5000) / 1000).toFixed(3),
    model: random.pick(["m/one", "m/two"]),
    at: iso(now - random.int(9 * DAY)),
  }));
  const inserted = await pool.query<{ id: string }>(
    `INSERT INTO generation (id, account_id, region, media_kind, model_identifier, status, estimated_cost, created_at, updated_at)
     SELECT gen_random_uuid(), $1, r.region::"Region", 'image', r.model, r.status::"GenerationStatus", r.cost::numeric, r.at, now()
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[]) AS r(region, status, cost, model, at)
     RETURNING id`,
    [
      accountId,
      rows.map((r) => r.region),
      rows.map((r) => r.status),
      rows.map((r) => r.cost),
      rows.map((r) => r.model),
      rows.map((r) => r.at),
    ],
  );
  return inserted.rows.map((row) => row.id);
}

async function writeAttempts(accountId: string, random: Random, generationIds: string[]) {
  for (const generationId of generationIds) {
    const count = random.int(3);
    for (let number = 1; number <= count; number += 1) {
      await pool.query(
        `INSERT INTO provider_attempt (id, generation_id, account_id, region, model_identifier, provider, attempt_number, outcome, estimated_cost, wasted, started_at)
         SELECT gen_random_uuid(), g.id, g.account_id, g.region, g.model_identifier, $3, $4, $5::"AttemptOutcome", $6::numeric, $7, g.created_at + ($8 || ' milliseconds')::interval
           FROM generation g WHERE g.id = $1 AND g.account_id = $2`,
        [
          generationId,
          accountId,
          random.pick(PROVIDERS),
          number,
          random.pick(OUTCOMES),
          (random.int(900) / 1000).toFixed(3),
          random.next() < 0.3,
          random.int(2 * HOUR),
        ],
      );
    }
  }
}

async function writeLedger(accountId: string, random: Random, now: number, count: number) {
  for (let index = 0; index < count; index += 1) {
    const type = random.pick(["charge", "refund", "reserve"]);
    const amount = random.int(3000) / 1000;
    await pool.query(
      `INSERT INTO ledger_entry (id, account_id, type, amount, balance_after, generation_id, description, created_at)
       VALUES (gen_random_uuid(), $1, $2::"LedgerEntryType", $3, 0, gen_random_uuid(), 'property test', $4)`,
      [accountId, type, amount.toFixed(3), iso(now - random.int(9 * DAY))],
    );
  }
}

/** Random moves of generations and attempts between states, as the executor's transitions do. */
async function moveSome(accountId: string, random: Random) {
  const generations = await pool.query<{ id: string }>(`SELECT id FROM generation WHERE account_id = $1 ORDER BY random() LIMIT 15`, [
    accountId,
  ]);
  for (const { id } of generations.rows) {
    await pool.query(
      `UPDATE generation SET status = $2::"GenerationStatus", provider_used = $3, estimated_cost = estimated_cost + 0.001 WHERE id = $1`,
      [id, random.pick(STATES), random.pick([...PROVIDERS, null])],
    );
  }
  const attempts = await pool.query<{ id: string }>(`SELECT id FROM provider_attempt WHERE account_id = $1 ORDER BY random() LIMIT 15`, [
    accountId,
  ]);
  for (const { id } of attempts.rows) {
    await pool.query(`UPDATE provider_attempt SET outcome = $2::"AttemptOutcome", wasted = $3 WHERE id = $1`, [
      id,
      random.pick(OUTCOMES),
      random.next() < 0.5,
    ]);
  }
}

const day = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

/** The plain counts of the raw rows in [since, until], keyed like the counters' answers. */
async function rawCounts(accountId: string, region: string, since: Date, until: Date) {
  const window = [accountId, region, since.toISOString(), until.toISOString()];
  const inWindow = (time: string) => `account_id = $1 AND region = $2::"Region" AND ${time} >= $3 AND ${time} <= $4`;
  const requests = await pool.query(
    `SELECT ${day("created_at")} AS day, endpoint, status_code / 100 AS class, coalesce(error_code, '') AS code, count(*)::int AS n
       FROM request_log WHERE ${inWindow("created_at")} GROUP BY 1, 2, 3, 4`,
    window,
  );
  const generations = await pool.query(
    `SELECT ${day("created_at")} AS day, CASE WHEN status IN ('pending', 'processing') THEN 'in_flight' ELSE status::text END AS state,
            count(*)::int AS n, (sum(estimated_cost) * 1000)::bigint AS cost
       FROM generation WHERE ${inWindow("created_at")} GROUP BY 1, 2`,
    window,
  );
  const attempts = await pool.query(
    `SELECT provider, outcome::text AS outcome, wasted, count(*)::int AS n, (sum(estimated_cost) * 1000)::bigint AS cost
       FROM provider_attempt WHERE ${inWindow("started_at")} GROUP BY 1, 2, 3`,
    window,
  );
  const ledger = await pool.query(
    `SELECT ${day("created_at")} AS day, type::text AS type, count(*)::int AS n, (sum(amount) * 1000)::bigint AS amount
       FROM ledger_entry WHERE account_id = $1 AND created_at >= $2 AND created_at <= $3 GROUP BY 1, 2`,
    [accountId, since.toISOString(), until.toISOString()],
  );
  return {
    requests: keyed(requests.rows.map((r) => [`${r.day} ${r.endpoint} ${r.class} ${r.code}`, `${r.n}`])),
    generations: keyed(generations.rows.map((r) => [`${r.day} ${r.state}`, `${r.n} ${r.cost}`])),
    attempts: keyed(attempts.rows.map((r) => [`${r.provider} ${r.outcome} ${r.wasted}`, `${r.n} ${r.cost}`])),
    ledger: keyed(ledger.rows.map((r) => [`${r.day} ${r.type}`, `${r.n} ${r.amount}`])),
  };
}

async function counted(accountId: string, region: string, since: Date, until: Date) {
  const buckets = usageBuckets(since, until);
  const scope = { accountId, region };
  const [requests, generations, attempts, ledger] = await Promise.all([
    requestCounts(db, scope, buckets),
    generationCounts(db, scope, buckets),
    attemptCounts(db, scope, buckets),
    ledgerCounts(db, accountId, buckets),
  ]);
  return {
    requests: keyed(requests.map((r) => [`${r.day} ${r.endpoint} ${r.status_class} ${r.error_code}`, `${r.requests}`])),
    generations: keyed(generations.map((r) => [`${r.day} ${r.state}`, `${r.generations} ${r.cost_millis}`])),
    attempts: keyed(attempts.map((r) => [`${r.provider} ${r.outcome} ${r.wasted}`, `${r.attempts} ${r.cost_millis}`])),
    ledger: keyed(ledger.map((r) => [`${r.day} ${r.type}`, `${r.entries} ${r.amount_millis}`])),
  };
}

function keyed(entries: string[][]): Record<string, string> {
  return Object.fromEntries(entries.map(([key, value]) => [key!, value!]).sort(([a], [b]) => (a! < b! ? -1 : 1)));
}

/** Compares `windows` random windows; returns how many raw groups they held (so an empty history cannot pass unnoticed). */
async function expectCountersEqualRaw(accountId: string, random: Random, now: number, windows: number): Promise<number> {
  let groups = 0;
  for (let index = 0; index < windows; index += 1) {
    const until = new Date(now - random.int(2 * DAY));
    const since = new Date(until.getTime() - 1 - random.int(8 * DAY));
    const region = random.pick(REGIONS);
    const raw = await rawCounts(accountId, region, since, until);
    groups +=
      Object.keys(raw.requests).length +
      Object.keys(raw.generations).length +
      Object.keys(raw.attempts).length +
      Object.keys(raw.ledger).length;
    expect(await counted(accountId, region, since, until), `window ${since.toISOString()} – ${until.toISOString()} in ${region}`).toEqual(
      raw,
    );
  }
  return groups;
}

describe("usage counters equal the raw rows", () => {
  it("for random histories, updates, folds, purges and windows", { timeout: 120_000 }, async () => {
    const seed = Number(process.env.ROLLUP_SEED ?? Date.now() % 1_000_000);
    console.log(`rollups-equal-raw seed ${seed} (ROLLUP_SEED=${seed} replays it)`);
    const random = randomFrom(seed);
    const { accountId } = await createTestAccount({ plan: "pro" });
    const now = Date.now();
    let compared = 0;

    for (let round = 0; round < 6; round += 1) {
      await writeRequests(accountId, random, now, 20 + random.int(200));
      const generationIds = await writeGenerations(accountId, random, now, 5 + random.int(40));
      await writeAttempts(accountId, random, generationIds);
      await writeLedger(accountId, random, now, 5 + random.int(15));
      await moveSome(accountId, random);
      if (random.next() < 0.6) await foldUsage(db);
      compared += await expectCountersEqualRaw(accountId, random, now, 4);
    }
    expect(compared).toBeGreaterThan(100);

    // Retention: the free plan's one-day windows delete most of the history (request logs, terminal
    // generations with their attempts, older ledger entries), through the real purge.
    await db.account.update({ where: { id: accountId }, data: { plan: "free" } });
    await purgeAccountData(db, { id: accountId, plan: "free" }, new Date(now), { batchSize: 50 });
    await expectCountersEqualRaw(accountId, random, now, 4);
    await foldUsage(db);
    await expectCountersEqualRaw(accountId, random, now, 4);
  });

  it("counts nothing of a transaction killed before its commit", { timeout: 60_000 }, async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    const random = randomFrom(7);
    const now = Date.now();
    await writeRequests(accountId, random, now, 50);

    const doomed = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await doomed.connect();
    doomed.on("error", () => {});
    const { rows } = await doomed.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await doomed.query("BEGIN");
    await writeRequests(accountId, random, now, 500, doomed);
    await pool.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
    await doomed.end().catch(() => {});

    expect(await expectCountersEqualRaw(accountId, random, now, 3)).toBeGreaterThan(0);
    await foldUsage(db);
    await expectCountersEqualRaw(accountId, random, now, 3);
  });

  it("loses nothing when a fold is killed midway", { timeout: 60_000 }, async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    const random = randomFrom(11);
    const now = Date.now();
    await foldUsage(db);
    await writeRequests(accountId, random, now, 300);
    const generationIds = await writeGenerations(accountId, random, now, 30);
    await writeAttempts(accountId, random, generationIds);

    // The fold moves requests, then generations, then attempts; a lock on attempt_usage holds it
    // after it has moved the first two (uncommitted), and it is killed there. (If the test
    // server's own minute fold holds the fold lock meanwhile, ours returns at once: let that one
    // through and try again.)
    let killed = false;
    for (let tries = 0; !killed && tries < 5; tries += 1) {
      const holder = await pool.connect();
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE attempt_usage IN EXCLUSIVE MODE");
      const folder = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await folder.connect();
      folder.on("error", () => {});
      const folderPid = (await folder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      let settled = false;
      const folding = folder.query("SELECT darkroom_fold_usage()").then(
        () => ((settled = true), null),
        (error: Error) => error,
      );
      const state = await until(async () => {
        if (settled) return "returned";
        const { rows } = await pool.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [folderPid]);
        return rows[0]?.wait_event_type === "Lock" ? "waiting" : null;
      }, "the fold waits on attempt_usage");
      if (state === "waiting") {
        await pool.query("SELECT pg_terminate_backend($1)", [folderPid]);
        expect(await folding).toBeInstanceOf(Error);
        killed = true;
      }
      await folder.end().catch(() => {});
      await holder.query("ROLLBACK");
      holder.release();
    }
    expect(killed).toBe(true);

    await expectCountersEqualRaw(accountId, random, now, 4);
    expect(await foldUsage(db)).toBeGreaterThan(0);
    await expectCountersEqualRaw(accountId, random, now, 4);
  });
});

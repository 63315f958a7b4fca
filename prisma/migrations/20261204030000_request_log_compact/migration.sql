-- The request log, compact and partitioned by week (issue #47; server/request-logs/README.md).
--
-- A row of request_log_row holds numbers and small codes only: the text that repeats (the account
-- and the key, the key's name, prefix and state as they were, the client's address hash and user
-- agent, the method, endpoint and region) lives once in a small table of its own and the row points
-- at it. Fixed-width columns first, widest first, so no byte is lost to alignment; no column is
-- NULL, so no row carries a null bitmap. Its identity is (created_at, id): id comes from a cycling
-- 4-byte sequence, unique among rows of the same millisecond (request_log_entry_id() spells the
-- pair as the entry's request_log_id). The two indexes key the time in whole seconds
-- (request_log_second()), 4 bytes instead of 8, so each index entry is 16 bytes.
--
-- `request_log` stays readable as before: a view with the old columns (the spec's entry fields),
-- for every reader that wants the text.

-- Seconds since 2020-01-01 UTC, an int4 until 2088. Monotonic in `at`, so an index on it orders
-- rows as created_at does, to the second; readers order by it, then created_at, then id.
CREATE FUNCTION request_log_second(at TIMESTAMPTZ) RETURNS INTEGER
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN floor(extract(epoch FROM (at AT TIME ZONE 'UTC')) - 1577836800)::integer;

-- ERR1002 is kept as 1002 (0: no error code); the error table's codes are ERR and four digits.
CREATE FUNCTION request_log_error_code(code SMALLINT) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN code = 0 THEN NULL ELSE 'ERR' || lpad(code::text, 4, '0') END;

-- The entry's request_log_id: the row's millisecond and id in the shape of a UUID (version 7:
-- 48 bits of Unix milliseconds first), so it sorts by time and names its partition.
CREATE FUNCTION request_log_entry_id(at TIMESTAMPTZ, id INTEGER) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
  SELECT substr(ms, 1, 8) || '-' || substr(ms, 9, 4) || '-7000-8000-0000' || lpad(to_hex(id), 8, '0')
    FROM (SELECT lpad(to_hex(floor(extract(epoch FROM (at AT TIME ZONE 'UTC')) * 1000)::bigint), 12, '0') AS ms) AS t
);

CREATE TABLE "request_log_account" (
    "account_no" INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    "account_id" UUID NOT NULL UNIQUE REFERENCES "account"("id") ON DELETE CASCADE
);

-- An API key (api_key_id NULL: rows of the account logged without a key, only ever seeded).
CREATE TABLE "request_log_key" (
    "key_no" INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    "account_no" INTEGER NOT NULL REFERENCES "request_log_account"("account_no") ON DELETE CASCADE,
    "api_key_id" UUID UNIQUE REFERENCES "api_key"("id") ON DELETE CASCADE,
    CONSTRAINT "request_log_key_once" UNIQUE NULLS NOT DISTINCT ("account_no", "api_key_id")
);

-- Who called: the key as it was at request time, and the client (its address's HMAC, its agent).
-- last_seen_at: the newest row using it, give or take a minute (the writer refreshes it when older).
CREATE TABLE "request_log_caller" (
    "caller_no" INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    "key_no" INTEGER NOT NULL REFERENCES "request_log_key"("key_no") ON DELETE CASCADE,
    "key_name" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_state" TEXT NOT NULL,
    "ip_hash" TEXT NOT NULL,
    "user_agent" TEXT,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "request_log_caller_once" UNIQUE NULLS NOT DISTINCT ("key_no", "key_name", "key_prefix", "key_state", "ip_hash", "user_agent")
);

-- What was called, per account (so an account's endpoints are listed from here, not from its rows).
CREATE TABLE "request_log_route" (
    "route_no" INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    "account_no" INTEGER NOT NULL REFERENCES "request_log_account"("account_no") ON DELETE CASCADE,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "region" "Region",
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "request_log_route_once" UNIQUE NULLS NOT DISTINCT ("account_no", "method", "endpoint", "region")
);

CREATE SEQUENCE "request_log_row_id_seq" AS INTEGER MINVALUE -2147483648 MAXVALUE 2147483647 START WITH 1 CYCLE;

-- 24-byte header + 55 bytes of data (+ the query's text when there is one) = 80 bytes a row.
CREATE TABLE "request_log_row" (
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    -- The request id; the nil UUID when it is not a UUID, which request_ref then holds.
    "request_id" UUID NOT NULL,
    "id" INTEGER NOT NULL DEFAULT nextval('request_log_row_id_seq'),
    "account_no" INTEGER NOT NULL,
    "key_no" INTEGER NOT NULL REFERENCES "request_log_key"("key_no") ON DELETE CASCADE,
    "caller_no" INTEGER NOT NULL,
    "route_no" INTEGER NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "status_code" SMALLINT NOT NULL,
    "error_code" SMALLINT NOT NULL,
    "idempotent_replay" BOOLEAN NOT NULL,
    "request_ref" TEXT NOT NULL DEFAULT '',
    -- The sanitized query as a JSON object's text; '' for none.
    "query" TEXT NOT NULL DEFAULT ''
) PARTITION BY RANGE ("created_at");

ALTER SEQUENCE "request_log_row_id_seq" OWNED BY "request_log_row"."id";

-- The account's log newest first (the dashboard's page and its filters, an account's raw rows
-- between two instants, retention's cleanup), and the key's (the key page; a key's deletion).
CREATE INDEX "request_log_row_account" ON "request_log_row" ("account_no", request_log_second("created_at"));
CREATE INDEX "request_log_row_key" ON "request_log_row" ("key_no", request_log_second("created_at"));

-- The weeks (Monday 00:00 UTC to the next) from the one holding `since` to the one holding
-- `until`, each created if missing: standalone, then attached, which locks the log only against
-- other schema changes (SHARE UPDATE EXCLUSIVE), never against its readers and writers. Returns
-- how many it created. Called at start, hourly by retention, and by a writer whose row found no week.
CREATE FUNCTION request_log_ensure_partitions(since TIMESTAMPTZ, "until" TIMESTAMPTZ) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
  week TIMESTAMPTZ := date_trunc('week', since AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  part TEXT;
  made INTEGER := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('request_log_ensure_partitions'));
  WHILE week <= "until" LOOP
    part := 'request_log_row_' || to_char(week AT TIME ZONE 'UTC', 'YYYYMMDD');
    IF to_regclass(quote_ident(part)) IS NULL THEN
      EXECUTE format('CREATE TABLE %I (LIKE request_log_row INCLUDING DEFAULTS)', part);
      EXECUTE format('ALTER TABLE request_log_row ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, week, week + interval '7 days');
      made := made + 1;
    END IF;
    week := week + interval '7 days';
  END LOOP;
  RETURN made;
END;
$$;

-- The partitions with their bounds, oldest first (pending: a DETACH … CONCURRENTLY that did not finish).
CREATE FUNCTION request_log_partitions() RETURNS TABLE (name TEXT, since TIMESTAMPTZ, "until" TIMESTAMPTZ, pending BOOLEAN)
LANGUAGE sql STABLE AS $$
  SELECT c.relname::text, bound[1]::timestamptz, bound[2]::timestamptz, i.inhdetachpending
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''([^'']+)''\) TO \(''([^'']+)''\)') AS bound
   WHERE i.inhparent = 'request_log_row'::regclass
   ORDER BY 2
$$;

-- ---------------------------------------------------------------------------------------------
-- The rows so far, converted. Codes the error table cannot have written stop the migration
-- rather than being kept as something else.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM request_log WHERE error_code IS NOT NULL AND error_code !~ '^ERR[1-9][0-9]{3}$') THEN
    RAISE EXCEPTION 'request_log: an error_code that is not ERR and four digits';
  END IF;
  IF EXISTS (SELECT 1 FROM request_log WHERE status_code NOT BETWEEN 0 AND 32767) THEN
    RAISE EXCEPTION 'request_log: a status_code outside a smallint';
  END IF;
END;
$$;

SELECT request_log_ensure_partitions(week, week)
  FROM (SELECT DISTINCT date_trunc('week', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS week FROM request_log) AS weeks;
SELECT request_log_ensure_partitions(now() - interval '7 days', now() + interval '28 days');

INSERT INTO request_log_account (account_id) SELECT DISTINCT account_id FROM request_log ORDER BY 1;

INSERT INTO request_log_key (account_no, api_key_id)
SELECT DISTINCT a.account_no, r.api_key_id FROM request_log r JOIN request_log_account a USING (account_id) ORDER BY 1, 2;

INSERT INTO request_log_caller (key_no, key_name, key_prefix, key_state, ip_hash, user_agent, last_seen_at)
SELECT k.key_no, r.key_name, r.key_prefix, r.key_status, r.ip_hash, r.user_agent, max(r.created_at)
  FROM request_log r
  JOIN request_log_account a USING (account_id)
  JOIN request_log_key k ON k.account_no = a.account_no AND k.api_key_id IS NOT DISTINCT FROM r.api_key_id
 GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO request_log_route (account_no, method, endpoint, region, last_seen_at)
SELECT a.account_no, r.method, r.endpoint, r.region, max(r.created_at)
  FROM request_log r JOIN request_log_account a USING (account_id)
 GROUP BY 1, 2, 3, 4;

INSERT INTO request_log_row (created_at, request_id, account_no, key_no, caller_no, route_no, latency_ms, status_code, error_code,
                             idempotent_replay, request_ref, query)
SELECT r.created_at,
       CASE WHEN canonical THEN r.request_id::uuid ELSE '00000000-0000-0000-0000-000000000000' END,
       a.account_no, k.key_no, c.caller_no, t.route_no, r.latency_ms, r.status_code::smallint,
       coalesce(substr(r.error_code, 4)::smallint, 0),
       r.idempotent_replay,
       CASE WHEN canonical THEN '' ELSE r.request_id END,
       CASE WHEN r.query = '{}'::jsonb THEN '' ELSE r.query::text END
  FROM request_log r
  CROSS JOIN LATERAL (SELECT r.request_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' AS canonical) AS shape
  JOIN request_log_account a USING (account_id)
  JOIN request_log_key k ON k.account_no = a.account_no AND k.api_key_id IS NOT DISTINCT FROM r.api_key_id
  JOIN request_log_caller c ON c.key_no = k.key_no AND c.key_name = r.key_name AND c.key_prefix = r.key_prefix
                           AND c.key_state = r.key_status AND c.ip_hash = r.ip_hash AND c.user_agent IS NOT DISTINCT FROM r.user_agent
  JOIN request_log_route t ON t.account_no = a.account_no AND t.method = r.method AND t.endpoint = r.endpoint
                          AND t.region IS NOT DISTINCT FROM r.region
 ORDER BY r.created_at, r.id;

DROP TABLE "request_log";

-- The log as it reads (the spec's request-log entry fields, the old columns): for readers that
-- want its text. The app's own list reads request_log_row through its indexes
-- (server/request-logs/list-request-logs.ts).
CREATE VIEW "request_log" AS
SELECT request_log_entry_id(r.created_at, r.id) AS id,
       a.account_id,
       k.api_key_id,
       CASE WHEN r.request_ref = '' THEN r.request_id::text ELSE r.request_ref END AS request_id,
       c.key_name,
       c.key_prefix,
       c.key_state AS key_status,
       t.method,
       t.endpoint,
       CASE WHEN r.query = '' THEN '{}'::jsonb ELSE r.query::jsonb END AS query,
       r.status_code::integer AS status_code,
       request_log_error_code(r.error_code) AS error_code,
       r.idempotent_replay,
       c.ip_hash,
       c.user_agent,
       r.latency_ms,
       t.region,
       r.created_at
  FROM request_log_row r
  JOIN request_log_account a ON a.account_no = r.account_no
  JOIN request_log_key k ON k.key_no = r.key_no
  JOIN request_log_caller c ON c.caller_no = r.caller_no
  JOIN request_log_route t ON t.route_no = r.route_no;

-- An account's rows between two instants (both included), in the view's columns, through the
-- account index: what a reader of raw rows in a time range should call (the view alone cannot
-- turn a created_at range into the index's seconds).
CREATE FUNCTION request_log_between(account UUID, since TIMESTAMPTZ, "until" TIMESTAMPTZ) RETURNS SETOF request_log
LANGUAGE sql STABLE AS $$
  SELECT request_log_entry_id(r.created_at, r.id), a.account_id, k.api_key_id,
         CASE WHEN r.request_ref = '' THEN r.request_id::text ELSE r.request_ref END,
         c.key_name, c.key_prefix, c.key_state, t.method, t.endpoint,
         CASE WHEN r.query = '' THEN '{}'::jsonb ELSE r.query::jsonb END,
         r.status_code::integer, request_log_error_code(r.error_code), r.idempotent_replay, c.ip_hash, c.user_agent,
         r.latency_ms, t.region, r.created_at
    FROM request_log_account a
    JOIN request_log_row r ON r.account_no = a.account_no
    JOIN request_log_key k ON k.key_no = r.key_no
    JOIN request_log_caller c ON c.caller_no = r.caller_no
    JOIN request_log_route t ON t.route_no = r.route_no
   WHERE a.account_id = account
     AND request_log_second(r.created_at) BETWEEN request_log_second(since) AND request_log_second("until")
     AND r.created_at >= since AND r.created_at <= "until"
$$;

-- Usage counters (server/usage/rollups/README.md). Each source table's triggers append its
-- changes to a *_usage_change table in the writer's own statement (so a counter is never apart
-- from its row: same transaction, any writer, bulk loads included); `darkroom_fold_usage()`
-- moves those changes into hourly and daily rows in one statement. A read sums whole days, whole
-- hours, the changes not folded yet, and the raw rows of its two partial hours.

CREATE TYPE "UsageGrain" AS ENUM ('hour', 'day');

-- The /v1 requests: request_log rows.
CREATE TABLE "request_usage" (
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "grain" "UsageGrain" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "api_key_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status_class" SMALLINT NOT NULL,
    "error_code" TEXT NOT NULL,
    "requests" BIGINT NOT NULL,
    CONSTRAINT "request_usage_pkey" PRIMARY KEY ("account_id", "grain", "bucket", "region", "api_key_id", "endpoint", "status_class", "error_code")
);

CREATE TABLE "request_usage_change" (
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "api_key_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "status_class" SMALLINT NOT NULL,
    "error_code" TEXT NOT NULL,
    "requests" BIGINT NOT NULL
);
CREATE INDEX "request_usage_change_account_id_bucket_idx" ON "request_usage_change"("account_id", "bucket");

-- Generations by creation time; `state` is in_flight (pending or processing), succeeded, failed
-- or canceled; cost_millis is the estimated cost in millicredits.
CREATE TABLE "generation_usage" (
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "grain" "UsageGrain" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "api_key_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "generations" BIGINT NOT NULL,
    "cost_millis" BIGINT NOT NULL,
    CONSTRAINT "generation_usage_pkey" PRIMARY KEY ("account_id", "grain", "bucket", "region", "api_key_id", "model", "provider", "state")
);

CREATE TABLE "generation_usage_change" (
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "api_key_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "generations" BIGINT NOT NULL,
    "cost_millis" BIGINT NOT NULL
);
CREATE INDEX "generation_usage_change_account_id_bucket_idx" ON "generation_usage_change"("account_id", "bucket");

-- Provider attempts by start time.
CREATE TABLE "attempt_usage" (
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "grain" "UsageGrain" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "provider" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "wasted" BOOLEAN NOT NULL,
    "attempts" BIGINT NOT NULL,
    "cost_millis" BIGINT NOT NULL,
    CONSTRAINT "attempt_usage_pkey" PRIMARY KEY ("account_id", "grain", "bucket", "region", "provider", "outcome", "wasted")
);

CREATE TABLE "attempt_usage_change" (
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "provider" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "wasted" BOOLEAN NOT NULL,
    "attempts" BIGINT NOT NULL,
    "cost_millis" BIGINT NOT NULL
);
CREATE INDEX "attempt_usage_change_account_id_bucket_idx" ON "attempt_usage_change"("account_id", "bucket");

-- Credit movements: ledger_entry rows per type (the overview's credits charged), amounts in millicredits.
CREATE TABLE "ledger_usage" (
    "account_id" UUID NOT NULL,
    "grain" "UsageGrain" NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "type" "LedgerEntryType" NOT NULL,
    "entries" BIGINT NOT NULL,
    "amount_millis" BIGINT NOT NULL,
    CONSTRAINT "ledger_usage_pkey" PRIMARY KEY ("account_id", "grain", "bucket", "type")
);

CREATE TABLE "ledger_usage_change" (
    "account_id" UUID NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "type" "LedgerEntryType" NOT NULL,
    "entries" BIGINT NOT NULL,
    "amount_millis" BIGINT NOT NULL
);
CREATE INDEX "ledger_usage_change_account_id_bucket_idx" ON "ledger_usage_change"("account_id", "bucket");

-- The dimension values of one row, as the counters keep them.
CREATE FUNCTION darkroom_usage_hour(at TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' $$;

CREATE FUNCTION darkroom_usage_key(key UUID) RETURNS UUID
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(key, '00000000-0000-0000-0000-000000000000'::uuid) $$;

CREATE FUNCTION darkroom_usage_state(status "GenerationStatus") RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT CASE WHEN status IN ('pending', 'processing') THEN 'in_flight' ELSE status::text END $$;

-- request_log: inserts and deletes (retention, a key's deletion), a statement at a time.
CREATE FUNCTION darkroom_request_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO request_usage_change
    SELECT account_id, region, darkroom_usage_hour(created_at), darkroom_usage_key(api_key_id), endpoint, (status_code / 100)::smallint,
           coalesce(error_code, ''), count(*)
      FROM changed_rows WHERE region IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    INSERT INTO request_usage_change
    SELECT account_id, region, darkroom_usage_hour(created_at), darkroom_usage_key(api_key_id), endpoint, (status_code / 100)::smallint,
           coalesce(error_code, ''), -count(*)
      FROM gone_rows WHERE region IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER request_usage_inserted AFTER INSERT ON "request_log"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_request_usage();
CREATE TRIGGER request_usage_deleted AFTER DELETE ON "request_log"
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_request_usage();

-- generation: inserts and deletes a statement at a time; an update only when a counted value moves
-- (the old row's contribution out, the new one's in).
CREATE FUNCTION darkroom_generation_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO generation_usage_change
    SELECT account_id, region, darkroom_usage_hour(created_at), darkroom_usage_key(api_key_id), model_identifier, coalesce(provider_used, ''),
           darkroom_usage_state(status), count(*), (sum(estimated_cost) * 1000)::bigint
      FROM changed_rows GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO generation_usage_change
    SELECT account_id, region, darkroom_usage_hour(created_at), darkroom_usage_key(api_key_id), model_identifier, coalesce(provider_used, ''),
           darkroom_usage_state(status), -count(*), -(sum(estimated_cost) * 1000)::bigint
      FROM gone_rows GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    INSERT INTO generation_usage_change VALUES
      (OLD.account_id, OLD.region, darkroom_usage_hour(OLD.created_at), darkroom_usage_key(OLD.api_key_id), OLD.model_identifier,
       coalesce(OLD.provider_used, ''), darkroom_usage_state(OLD.status), -1, -(OLD.estimated_cost * 1000)::bigint),
      (NEW.account_id, NEW.region, darkroom_usage_hour(NEW.created_at), darkroom_usage_key(NEW.api_key_id), NEW.model_identifier,
       coalesce(NEW.provider_used, ''), darkroom_usage_state(NEW.status), 1, (NEW.estimated_cost * 1000)::bigint);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER generation_usage_inserted AFTER INSERT ON "generation"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_generation_usage();
CREATE TRIGGER generation_usage_deleted AFTER DELETE ON "generation"
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_generation_usage();
CREATE TRIGGER generation_usage_updated AFTER UPDATE ON "generation"
  FOR EACH ROW
  WHEN (darkroom_usage_state(OLD.status) IS DISTINCT FROM darkroom_usage_state(NEW.status)
        OR OLD.estimated_cost IS DISTINCT FROM NEW.estimated_cost
        OR OLD.provider_used IS DISTINCT FROM NEW.provider_used
        OR OLD.api_key_id IS DISTINCT FROM NEW.api_key_id
        OR OLD.model_identifier IS DISTINCT FROM NEW.model_identifier
        OR OLD.region IS DISTINCT FROM NEW.region
        OR OLD.account_id IS DISTINCT FROM NEW.account_id
        OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION darkroom_generation_usage();

-- provider_attempt: the same, by start time.
CREATE FUNCTION darkroom_attempt_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO attempt_usage_change
    SELECT account_id, region, darkroom_usage_hour(started_at), provider, outcome::text, wasted, count(*), (sum(estimated_cost) * 1000)::bigint
      FROM changed_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO attempt_usage_change
    SELECT account_id, region, darkroom_usage_hour(started_at), provider, outcome::text, wasted, -count(*), -(sum(estimated_cost) * 1000)::bigint
      FROM gone_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    INSERT INTO attempt_usage_change VALUES
      (OLD.account_id, OLD.region, darkroom_usage_hour(OLD.started_at), OLD.provider, OLD.outcome::text, OLD.wasted, -1, -(OLD.estimated_cost * 1000)::bigint),
      (NEW.account_id, NEW.region, darkroom_usage_hour(NEW.started_at), NEW.provider, NEW.outcome::text, NEW.wasted, 1, (NEW.estimated_cost * 1000)::bigint);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER attempt_usage_inserted AFTER INSERT ON "provider_attempt"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_attempt_usage();
CREATE TRIGGER attempt_usage_deleted AFTER DELETE ON "provider_attempt"
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_attempt_usage();
CREATE TRIGGER attempt_usage_updated AFTER UPDATE ON "provider_attempt"
  FOR EACH ROW
  WHEN (OLD.outcome IS DISTINCT FROM NEW.outcome
        OR OLD.wasted IS DISTINCT FROM NEW.wasted
        OR OLD.estimated_cost IS DISTINCT FROM NEW.estimated_cost
        OR OLD.provider IS DISTINCT FROM NEW.provider
        OR OLD.region IS DISTINCT FROM NEW.region
        OR OLD.account_id IS DISTINCT FROM NEW.account_id
        OR OLD.started_at IS DISTINCT FROM NEW.started_at)
  EXECUTE FUNCTION darkroom_attempt_usage();

-- ledger_entry: append-only (inserts, and retention's deletes).
CREATE FUNCTION darkroom_ledger_usage() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ledger_usage_change
    SELECT account_id, darkroom_usage_hour(created_at), type, count(*), (sum(amount) * 1000)::bigint FROM changed_rows GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO ledger_usage_change
    SELECT account_id, darkroom_usage_hour(created_at), type, -count(*), -(sum(amount) * 1000)::bigint FROM gone_rows GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER ledger_usage_inserted AFTER INSERT ON "ledger_entry"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_ledger_usage();
CREATE TRIGGER ledger_usage_deleted AFTER DELETE ON "ledger_entry"
  REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION darkroom_ledger_usage();

-- Moves every visible change into its hour and its UTC day, in one statement per source; the
-- rows that sum to nothing go. One fold at a time (a second caller returns at once). Returns the
-- number of change rows moved.
CREATE FUNCTION darkroom_fold_usage() RETURNS BIGINT
LANGUAGE plpgsql AS $$
DECLARE
  moved_requests BIGINT;
  moved_generations BIGINT;
  moved_attempts BIGINT;
  moved_ledger BIGINT;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('darkroom_fold_usage')) THEN
    RETURN 0;
  END IF;

  WITH moved AS (DELETE FROM request_usage_change RETURNING *),
  hours AS (
    INSERT INTO request_usage
    SELECT account_id, region, 'hour'::"UsageGrain", bucket, api_key_id, endpoint, status_class, error_code, sum(requests)
      FROM moved GROUP BY account_id, region, bucket, api_key_id, endpoint, status_class, error_code
    ON CONFLICT ON CONSTRAINT request_usage_pkey DO UPDATE SET requests = request_usage.requests + excluded.requests
  ),
  days AS (
    INSERT INTO request_usage
    SELECT account_id, region, 'day'::"UsageGrain", date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', api_key_id, endpoint, status_class, error_code, sum(requests)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT request_usage_pkey DO UPDATE SET requests = request_usage.requests + excluded.requests
  )
  SELECT count(*) INTO moved_requests FROM moved;

  WITH moved AS (DELETE FROM generation_usage_change RETURNING *),
  hours AS (
    INSERT INTO generation_usage
    SELECT account_id, region, 'hour'::"UsageGrain", bucket, api_key_id, model, provider, state, sum(generations), sum(cost_millis)
      FROM moved GROUP BY account_id, region, bucket, api_key_id, model, provider, state
    ON CONFLICT ON CONSTRAINT generation_usage_pkey DO UPDATE
      SET generations = generation_usage.generations + excluded.generations, cost_millis = generation_usage.cost_millis + excluded.cost_millis
  ),
  days AS (
    INSERT INTO generation_usage
    SELECT account_id, region, 'day'::"UsageGrain", date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', api_key_id, model, provider, state,
           sum(generations), sum(cost_millis)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT generation_usage_pkey DO UPDATE
      SET generations = generation_usage.generations + excluded.generations, cost_millis = generation_usage.cost_millis + excluded.cost_millis
  )
  SELECT count(*) INTO moved_generations FROM moved;

  WITH moved AS (DELETE FROM attempt_usage_change RETURNING *),
  hours AS (
    INSERT INTO attempt_usage
    SELECT account_id, region, 'hour'::"UsageGrain", bucket, provider, outcome, wasted, sum(attempts), sum(cost_millis)
      FROM moved GROUP BY account_id, region, bucket, provider, outcome, wasted
    ON CONFLICT ON CONSTRAINT attempt_usage_pkey DO UPDATE
      SET attempts = attempt_usage.attempts + excluded.attempts, cost_millis = attempt_usage.cost_millis + excluded.cost_millis
  ),
  days AS (
    INSERT INTO attempt_usage
    SELECT account_id, region, 'day'::"UsageGrain", date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', provider, outcome, wasted,
           sum(attempts), sum(cost_millis)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT ON CONSTRAINT attempt_usage_pkey DO UPDATE
      SET attempts = attempt_usage.attempts + excluded.attempts, cost_millis = attempt_usage.cost_millis + excluded.cost_millis
  )
  SELECT count(*) INTO moved_attempts FROM moved;

  WITH moved AS (DELETE FROM ledger_usage_change RETURNING *),
  hours AS (
    INSERT INTO ledger_usage
    SELECT account_id, 'hour'::"UsageGrain", bucket, type, sum(entries), sum(amount_millis)
      FROM moved GROUP BY account_id, bucket, type
    ON CONFLICT ON CONSTRAINT ledger_usage_pkey DO UPDATE
      SET entries = ledger_usage.entries + excluded.entries, amount_millis = ledger_usage.amount_millis + excluded.amount_millis
  ),
  days AS (
    INSERT INTO ledger_usage
    SELECT account_id, 'day'::"UsageGrain", date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', type, sum(entries), sum(amount_millis)
      FROM moved GROUP BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT ledger_usage_pkey DO UPDATE
      SET entries = ledger_usage.entries + excluded.entries, amount_millis = ledger_usage.amount_millis + excluded.amount_millis
  )
  SELECT count(*) INTO moved_ledger FROM moved;

  DELETE FROM request_usage WHERE requests = 0;
  DELETE FROM generation_usage WHERE generations = 0 AND cost_millis = 0;
  DELETE FROM attempt_usage WHERE attempts = 0 AND cost_millis = 0;
  DELETE FROM ledger_usage WHERE entries = 0 AND amount_millis = 0;
  RETURN moved_requests + moved_generations + moved_attempts + moved_ledger;
END;
$$;

-- The history already there, counted once (as changes; the first fold moves them).
INSERT INTO request_usage_change
SELECT account_id, region, darkroom_usage_hour(created_at), darkroom_usage_key(api_key_id), endpoint, (status_code / 100)::smallint, coalesce(error_code, ''), count(*)
  FROM request_log WHERE region IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO generation_usage_change
SELECT account_id, region, darkroom_usage_hour(created_at), darkroom_usage_key(api_key_id), model_identifier, coalesce(provider_used, ''),
       darkroom_usage_state(status), count(*), (sum(estimated_cost) * 1000)::bigint
  FROM generation GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO attempt_usage_change
SELECT account_id, region, darkroom_usage_hour(started_at), provider, outcome::text, wasted, count(*), (sum(estimated_cost) * 1000)::bigint
  FROM provider_attempt GROUP BY 1, 2, 3, 4, 5, 6;
INSERT INTO ledger_usage_change
SELECT account_id, darkroom_usage_hour(created_at), type, count(*), (sum(amount) * 1000)::bigint FROM ledger_entry GROUP BY 1, 2, 3;
SELECT darkroom_fold_usage();

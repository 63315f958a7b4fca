-- Live streams (issue #31): every state change of a generation is a row of generation_event,
-- written by these triggers in the transaction that makes the change, so every path (the run,
-- a cancel, the sweeper, a deadline, the CLI, plain SQL) records it once and at its commit. The
-- id is the SSE `id:`; a NOTIFY darkroom_generation_event with the id wakes every instance's one
-- listener (server/live/event-hub.ts), which reads the rows in id order.
--
-- Ids are taken before commit, so a lower id can commit after a higher one. The first event of
-- each transaction holds a transaction advisory lock keyed by its id (class 27765): a reader that
-- finds an id missing waits while that lock is held, and once it is free the id is either
-- committed or never will be. Later events of the same transaction commit with the first.
--
-- Record events keep the row's record columns as they were (the stored request body left out);
-- the stream turns them into the public record when it sends them.

CREATE TABLE "generation_event" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "generation_id" UUID NOT NULL,
    "api_key_id" UUID,
    "model_identifier" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "generation_event_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "generation_event_account_id_id_idx" ON "generation_event"("account_id", "id");
CREATE INDEX "generation_event_generation_id_id_idx" ON "generation_event"("generation_id", "id");
CREATE INDEX "generation_event_created_at_idx" ON "generation_event"("created_at");

CREATE FUNCTION darkroom_write_generation_event(account UUID, generation UUID, api_key UUID, model TEXT, event_name TEXT, body JSONB) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  event_id BIGINT := nextval(pg_get_serial_sequence('generation_event', 'id'));
BEGIN
  IF current_setting('darkroom.event_lock', true) IS DISTINCT FROM '1' THEN
    PERFORM pg_advisory_xact_lock(27765, (event_id % 2147483647)::int);
    PERFORM set_config('darkroom.event_lock', '1', true);
  END IF;
  INSERT INTO generation_event (id, account_id, generation_id, api_key_id, model_identifier, name, payload)
  VALUES (event_id, account, generation, api_key, model, event_name, body);
  PERFORM pg_notify('darkroom_generation_event', event_id::text);
END;
$$;

CREATE FUNCTION darkroom_generation_record_json(g generation) RETURNS JSONB
LANGUAGE sql STABLE AS $$
  SELECT to_jsonb(g) - 'params' - 'input_file_last_content' - 'estimated_cost' - 'routing_exploration'
$$;

-- created, processing, and the terminal event; a success is preceded by its attempt's success and
-- a failure by the failures of attempts still running (their rows are updated after the generation's).
CREATE FUNCTION darkroom_generation_events() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  attempt RECORD;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM darkroom_write_generation_event(NEW.account_id, NEW.id, NEW.api_key_id, NEW.model_identifier, 'generation.created', darkroom_generation_record_json(NEW));
    RETURN NULL;
  END IF;
  IF NEW.status = 'processing' THEN
    PERFORM darkroom_write_generation_event(NEW.account_id, NEW.id, NEW.api_key_id, NEW.model_identifier, 'generation.processing', darkroom_generation_record_json(NEW));
    RETURN NULL;
  END IF;
  IF NEW.status = 'succeeded' THEN
    FOR attempt IN SELECT provider, attempt_number FROM provider_attempt WHERE generation_id = NEW.id ORDER BY attempt_number DESC LIMIT 1 LOOP
      PERFORM darkroom_write_generation_event(NEW.account_id, NEW.id, NEW.api_key_id, NEW.model_identifier, 'generation.attempt',
        jsonb_build_object('generation_id', NEW.id, 'provider', attempt.provider, 'attempt', attempt.attempt_number, 'outcome', 'succeeded'));
    END LOOP;
  ELSIF NEW.status = 'failed' THEN
    FOR attempt IN SELECT provider, attempt_number FROM provider_attempt WHERE generation_id = NEW.id AND outcome = 'running' ORDER BY attempt_number LOOP
      PERFORM darkroom_write_generation_event(NEW.account_id, NEW.id, NEW.api_key_id, NEW.model_identifier, 'generation.attempt',
        jsonb_build_object('generation_id', NEW.id, 'provider', attempt.provider, 'attempt', attempt.attempt_number, 'outcome', 'failed', 'error_code', NEW.error_code));
    END LOOP;
  END IF;
  IF NEW.status IN ('succeeded', 'failed', 'canceled') THEN
    PERFORM darkroom_write_generation_event(NEW.account_id, NEW.id, NEW.api_key_id, NEW.model_identifier,
      CASE NEW.status WHEN 'succeeded' THEN 'generation.completed' WHEN 'failed' THEN 'generation.failed' ELSE 'generation.canceled' END,
      darkroom_generation_record_json(NEW));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER generation_events_created
  AFTER INSERT ON "generation"
  FOR EACH ROW
  EXECUTE FUNCTION darkroom_generation_events();

CREATE TRIGGER generation_events_status
  AFTER UPDATE OF "status" ON "generation"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION darkroom_generation_events();

-- An attempt started (a new row, or a retried step's row running again) or failed while its
-- generation is in flight. Successes, and failures at a terminal transition, come from the
-- generation's trigger above, ahead of the terminal event.
CREATE FUNCTION darkroom_attempt_events() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  owner RECORD;
BEGIN
  IF NEW.outcome NOT IN ('running', 'failed') THEN
    RETURN NULL;
  END IF;
  SELECT status, api_key_id INTO owner FROM generation WHERE id = NEW.generation_id;
  IF NOT FOUND OR owner.status IN ('succeeded', 'failed', 'canceled') THEN
    RETURN NULL;
  END IF;
  PERFORM darkroom_write_generation_event(NEW.account_id, NEW.generation_id, owner.api_key_id, NEW.model_identifier, 'generation.attempt',
    CASE WHEN NEW.outcome = 'running'
      THEN jsonb_build_object('generation_id', NEW.generation_id, 'provider', NEW.provider, 'attempt', NEW.attempt_number, 'outcome', 'started')
      ELSE jsonb_build_object('generation_id', NEW.generation_id, 'provider', NEW.provider, 'attempt', NEW.attempt_number, 'outcome', 'failed', 'error_code', NEW.error_code)
    END);
  RETURN NULL;
END;
$$;

CREATE TRIGGER provider_attempt_events_started
  AFTER INSERT ON "provider_attempt"
  FOR EACH ROW
  EXECUTE FUNCTION darkroom_attempt_events();

CREATE TRIGGER provider_attempt_events_outcome
  AFTER UPDATE OF "outcome" ON "provider_attempt"
  FOR EACH ROW
  WHEN (OLD."outcome" IS DISTINCT FROM NEW."outcome")
  EXECUTE FUNCTION darkroom_attempt_events();

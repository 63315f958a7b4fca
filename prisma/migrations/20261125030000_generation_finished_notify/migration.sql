-- A create sent with `Prefer: wait` answers once its generation finishes
-- (server/generations/wait-for-finish.ts), whichever instance runs it: this trigger sends
-- NOTIFY darkroom_generation_finished with the generation's id when a row moves from an in-flight
-- status to a terminal one (succeeded, failed, canceled), delivered when that transaction commits.

CREATE FUNCTION darkroom_notify_generation_finished() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('darkroom_generation_finished', NEW.id::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER generation_finished_notify
  AFTER UPDATE ON "generation"
  FOR EACH ROW
  WHEN (OLD."status" IN ('pending', 'processing') AND NEW."status" IN ('succeeded', 'failed', 'canceled'))
  EXECUTE FUNCTION darkroom_notify_generation_finished();

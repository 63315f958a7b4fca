-- GET /v1/content/{id} serves finished generations (succeeded, failed, canceled) from a per-process
-- cache (server/generations/record-cache.ts). A finished row is only cached once it is finished, so
-- every later change to it is an UPDATE or DELETE of a finished row: these triggers send
-- NOTIFY darkroom_generation_change with the generation's id inside that transaction (delivered at
-- commit, never for a rollback), and every instance drops the entry.

CREATE FUNCTION darkroom_notify_generation_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('darkroom_generation_change', OLD.id::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER generation_change_notify_update
  AFTER UPDATE ON "generation"
  FOR EACH ROW
  WHEN (OLD."status" IN ('succeeded', 'failed', 'canceled'))
  EXECUTE FUNCTION darkroom_notify_generation_change();

CREATE TRIGGER generation_change_notify_delete
  AFTER DELETE ON "generation"
  FOR EACH ROW
  WHEN (OLD."status" IN ('succeeded', 'failed', 'canceled'))
  EXECUTE FUNCTION darkroom_notify_generation_change();

-- Key caches on every app instance are invalidated through NOTIFY darkroom_key_change, sent by
-- these triggers inside the transaction that changes a key or its account (PostgreSQL delivers
-- it at commit, never for a rollback). Payload: 'key:<hash>' or 'account:<id>'.
-- last_used_at alone changes on every request batch and never affects authentication.

CREATE FUNCTION darkroom_notify_api_key_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('darkroom_key_change', 'key:' || OLD.hash);
  IF TG_OP = 'UPDATE' AND NEW.hash IS DISTINCT FROM OLD.hash THEN
    PERFORM pg_notify('darkroom_key_change', 'key:' || NEW.hash);
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION darkroom_notify_account_key_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('darkroom_key_change', 'account:' || NEW.id::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_key_change_notify_update
  AFTER UPDATE ON "api_key"
  FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION darkroom_notify_api_key_change();

CREATE TRIGGER api_key_change_notify_delete
  AFTER DELETE ON "api_key"
  FOR EACH ROW
  EXECUTE FUNCTION darkroom_notify_api_key_change();

CREATE TRIGGER account_key_change_notify
  AFTER UPDATE OF "plan", "region" ON "account"
  FOR EACH ROW
  WHEN (OLD."plan" IS DISTINCT FROM NEW."plan" OR OLD."region" IS DISTINCT FROM NEW."region")
  EXECUTE FUNCTION darkroom_notify_account_key_change();

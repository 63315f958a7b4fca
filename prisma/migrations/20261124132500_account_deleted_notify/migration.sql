-- A deleted account's keys must stop working at once on every instance (key-cache.ts caches the
-- account with the key): deleting an account (deleted_at set) notifies like a plan or region change.
DROP TRIGGER "account_key_change_notify" ON "account";

CREATE TRIGGER account_key_change_notify
  AFTER UPDATE OF "plan", "region", "deleted_at" ON "account"
  FOR EACH ROW
  WHEN (OLD."plan" IS DISTINCT FROM NEW."plan" OR OLD."region" IS DISTINCT FROM NEW."region" OR OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at")
  EXECUTE FUNCTION darkroom_notify_account_key_change();

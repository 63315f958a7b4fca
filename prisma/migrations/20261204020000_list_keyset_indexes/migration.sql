-- The lists page newest first by (created_at, id) with a keyset cursor: with id in the index a page
-- is one index range scan that needs no sort. Each index replaces the one it extends.

-- DropIndex
DROP INDEX "activity_event_account_id_created_at_idx";

-- DropIndex
DROP INDEX "generation_account_id_created_at_idx";

-- DropIndex
DROP INDEX "ledger_entry_account_id_created_at_idx";

-- CreateIndex
CREATE INDEX "generation_account_id_created_at_id_idx" ON "generation"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ledger_entry_account_id_created_at_id_idx" ON "ledger_entry"("account_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "activity_event_account_id_created_at_id_idx" ON "activity_event"("account_id", "created_at", "id");

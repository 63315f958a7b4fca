-- CreateTable
CREATE TABLE "ledger_purged_source" (
    "source_key" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL,
    "purged_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_purged_source_pkey" PRIMARY KEY ("source_key")
);

-- CreateIndex
CREATE INDEX "ledger_purged_source_account_id_idx" ON "ledger_purged_source"("account_id");

-- AddForeignKey
ALTER TABLE "ledger_purged_source" ADD CONSTRAINT "ledger_purged_source_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

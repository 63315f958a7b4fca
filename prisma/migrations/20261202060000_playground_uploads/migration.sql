-- Input images uploaded from the dashboard's playground (server/playground/uploads): the object at
-- storage_key (uploads/<account>/<uuid>.<ext>) and its row live until expires_at (24 h after the
-- upload); the cleanup then deletes both. A live-upload cap per account is counted on
-- (account_id, expires_at).
CREATE TABLE "playground_upload" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "storage_key" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "playground_upload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "playground_upload_storage_key_key" ON "playground_upload"("storage_key");

-- CreateIndex
CREATE INDEX "playground_upload_account_id_expires_at_idx" ON "playground_upload"("account_id", "expires_at");

-- CreateIndex
CREATE INDEX "playground_upload_expires_at_idx" ON "playground_upload"("expires_at");

-- AddForeignKey
ALTER TABLE "playground_upload" ADD CONSTRAINT "playground_upload_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "playground_upload" ADD CONSTRAINT "playground_upload_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

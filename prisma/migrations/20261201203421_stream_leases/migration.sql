-- Stream caps across instances (issue #43): every open event stream (/v1 and the dashboard's
-- /api/live) holds a lease of its instance; an instance renews its row's expiry every second, and
-- the caps count only the leases of instances still live, so one that dies frees its slots when its
-- row expires (server/live/stream-leases.ts). A claim counts and inserts under a transaction
-- advisory lock per account (class 27766) and per session (27767), so two instances cannot both pass.

-- CreateTable
CREATE TABLE "stream_instance" (
    "id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_instance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stream_lease" (
    "id" UUID NOT NULL,
    "instance_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "session_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stream_lease_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stream_instance_expires_at_idx" ON "stream_instance"("expires_at");

-- CreateIndex
CREATE INDEX "stream_lease_account_id_kind_idx" ON "stream_lease"("account_id", "kind");

-- CreateIndex
CREATE INDEX "stream_lease_session_id_idx" ON "stream_lease"("session_id");

-- CreateIndex
CREATE INDEX "stream_lease_instance_id_idx" ON "stream_lease"("instance_id");

-- AddForeignKey
ALTER TABLE "stream_lease" ADD CONSTRAINT "stream_lease_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "stream_instance"("id") ON DELETE CASCADE ON UPDATE CASCADE;

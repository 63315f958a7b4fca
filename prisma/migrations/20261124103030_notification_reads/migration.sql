-- CreateTable
CREATE TABLE "notification_read" (
    "notification_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_read_pkey" PRIMARY KEY ("notification_id","user_id")
);

-- CreateIndex
CREATE INDEX "notification_read_user_id_idx" ON "notification_read"("user_id");

-- AddForeignKey
ALTER TABLE "notification_read" ADD CONSTRAINT "notification_read_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_read" ADD CONSTRAINT "notification_read_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Carry the old shared read state over: a notification read before this migration was shown as read
-- to every member who could see it, so each of them keeps it read (who actually read it is unknown).
INSERT INTO "notification_read" ("notification_id", "user_id", "read_at")
SELECT n."id", m."user_id", n."read_at"
FROM "notification" n
JOIN "membership" m ON m."account_id" = n."account_id"
WHERE n."read_at" IS NOT NULL AND (n."user_id" IS NULL OR n."user_id" = m."user_id");

-- AlterTable
ALTER TABLE "notification" DROP COLUMN "read_at";

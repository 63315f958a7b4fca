-- AlterTable
ALTER TABLE "account" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "deleted_by_id" UUID;

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "marketing_consent_at" TIMESTAMPTZ(3),
ADD COLUMN     "marketing_emails" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "session_version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "privacy_version" TEXT,
ADD COLUMN     "terms_accepted_at" TIMESTAMPTZ(3),
ADD COLUMN     "terms_version" TEXT;

-- AlterTable
ALTER TABLE "verification_token" ADD COLUMN     "used_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "bug_report" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "user_id" UUID,
    "description" TEXT NOT NULL,
    "intent" TEXT,
    "page_path" TEXT NOT NULL,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bug_report_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bug_report_account_id_created_at_idx" ON "bug_report"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "bug_report_created_at_idx" ON "bug_report"("created_at");

-- AddForeignKey
ALTER TABLE "bug_report" ADD CONSTRAINT "bug_report_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bug_report" ADD CONSTRAINT "bug_report_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "invitation" ADD COLUMN     "declined_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "invitation_account_id_email_idx" ON "invitation"("account_id", "email");

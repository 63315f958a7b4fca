-- Outbox bodies may carry sign-in and invitation links: they are sealed while queued and removed
-- once sent (server/email/email-body.ts). Bodies stored in plain text before cannot be sealed here
-- (the key is not in the database), so they are dropped; an e-mail still queued with one is
-- marked failed rather than sent without a body.
UPDATE "email_outbox" SET "status" = 'failed', "error" = 'Body removed when outbox bodies were sealed; ask for the e-mail again.' WHERE "status" = 'queued';

-- AlterTable
ALTER TABLE "email_outbox" DROP COLUMN "html",
DROP COLUMN "text",
ADD COLUMN     "body_key_id" TEXT,
ADD COLUMN     "sealed_body" TEXT;

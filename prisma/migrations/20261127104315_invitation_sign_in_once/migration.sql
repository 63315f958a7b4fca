-- "Continue as <address>" on an invitation signs in at most once per invitation (server/team/invitee-sign-in-link.ts).
-- AlterTable
ALTER TABLE "invitation" ADD COLUMN     "sign_in_used_at" TIMESTAMPTZ(3);

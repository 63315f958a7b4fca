-- AlterTable
ALTER TABLE "webhook_endpoint" ADD COLUMN     "secret_key_id" TEXT;

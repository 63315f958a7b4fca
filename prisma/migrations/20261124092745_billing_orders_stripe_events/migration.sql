-- Orders take the states of the credit-pack flow (old values mapped; no release created orders before this).
-- AlterEnum
BEGIN;
CREATE TYPE "OrderStatus_new" AS ENUM ('pending', 'fulfilled', 'manual_review', 'rejected', 'refunded', 'disputed', 'expired');
ALTER TABLE "public"."order" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "order" ALTER COLUMN "status" TYPE "OrderStatus_new" USING ((CASE "status"::text WHEN 'credited' THEN 'fulfilled' WHEN 'needs_review' THEN 'manual_review' WHEN 'paid' THEN 'pending' WHEN 'failed' THEN 'expired' ELSE "status"::text END)::"OrderStatus_new");
ALTER TYPE "OrderStatus" RENAME TO "OrderStatus_old";
ALTER TYPE "OrderStatus_new" RENAME TO "OrderStatus";
DROP TYPE "public"."OrderStatus_old";
ALTER TABLE "order" ALTER COLUMN "status" SET DEFAULT 'pending';
COMMIT;

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "SubscriptionStatus" ADD VALUE 'incomplete_expired';
ALTER TYPE "SubscriptionStatus" ADD VALUE 'paused';

-- AlterTable
ALTER TABLE "order" ADD COLUMN     "fulfilled_at" TIMESTAMPTZ(3),
ADD COLUMN     "refunded_at" TIMESTAMPTZ(3),
ADD COLUMN     "stripe_refund_id" TEXT;

-- AlterTable
ALTER TABLE "subscription" ADD COLUMN     "billing_anchor" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "stripe_event" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "stripe_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stripe_event_processed_at_received_at_idx" ON "stripe_event"("processed_at", "received_at");

-- CreateIndex
CREATE INDEX "order_stripe_payment_intent_id_idx" ON "order"("stripe_payment_intent_id");

-- CreateIndex
CREATE INDEX "order_status_created_at_idx" ON "order"("status", "created_at");

-- CreateEnum
CREATE TYPE "OrderKind" AS ENUM ('pack', 'auto_top_up');

-- AlterTable
ALTER TABLE "order" ADD COLUMN "kind" "OrderKind" NOT NULL DEFAULT 'pack',
ADD COLUMN "failure_reason" TEXT;

-- CreateTable
CREATE TABLE "auto_top_up" (
    "account_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "threshold" DECIMAL(12,3) NOT NULL,
    "pack_credits" INTEGER NOT NULL,
    "pack_amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "monthly_cap_cents" INTEGER NOT NULL,
    "payment_method_id" TEXT,
    "card_brand" TEXT,
    "card_last4" TEXT,
    "card_exp_month" INTEGER,
    "card_exp_year" INTEGER,
    "paused_at" TIMESTAMPTZ(3),
    "pause_reason" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_failure_reason" TEXT,
    "last_failure_at" TIMESTAMPTZ(3),
    "updated_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "auto_top_up_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "order_account_id_kind_created_at_idx" ON "order"("account_id", "kind", "created_at");

-- AddForeignKey
ALTER TABLE "auto_top_up" ADD CONSTRAINT "auto_top_up_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: at most one auto top-up in flight per account (a burst of creates starts one).
CREATE UNIQUE INDEX "order_one_auto_top_up_in_flight" ON "order" ("account_id") WHERE "kind" = 'auto_top_up' AND "status" IN ('pending', 'processing');

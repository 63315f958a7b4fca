-- CreateEnum
CREATE TYPE "SpendPeriod" AS ENUM ('day', 'week', 'month', 'total');

-- AlterTable
ALTER TABLE "account" ADD COLUMN     "monthly_spend_limit" DECIMAL(12,3);

-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "spend_budget_id" UUID,
ADD COLUMN     "spend_limit" DECIMAL(12,3),
ADD COLUMN     "spend_period" "SpendPeriod";

-- AlterTable
ALTER TABLE "generation" ADD COLUMN     "spend_budget_id" UUID;

-- CreateTable
CREATE TABLE "spend_counter" (
    "budget_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "account_id" UUID NOT NULL,
    "used" DECIMAL(14,3) NOT NULL DEFAULT 0,

    CONSTRAINT "spend_counter_pkey" PRIMARY KEY ("budget_id","day")
);

-- CreateTable
CREATE TABLE "spend_alert" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "budget_id" UUID NOT NULL,
    "api_key_id" UUID,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "threshold_percent" INTEGER NOT NULL,
    "spend_used" DECIMAL(14,3) NOT NULL,
    "spend_limit" DECIMAL(12,3) NOT NULL,
    "notification_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_alert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "spend_alert_account_id_created_at_idx" ON "spend_alert"("account_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "spend_alert_budget_id_period_start_threshold_percent_key" ON "spend_alert"("budget_id", "period_start", "threshold_percent");

-- AddForeignKey
ALTER TABLE "spend_counter" ADD CONSTRAINT "spend_counter_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_alert" ADD CONSTRAINT "spend_alert_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: a rotated key's successor shares its predecessor's budget, named by the lineage's
-- first key (null spend_budget_id means the key's own id).
WITH RECURSIVE lineage AS (
  SELECT k.id, k.id AS budget FROM "api_key" k WHERE NOT EXISTS (SELECT 1 FROM "api_key" p WHERE p."replaced_by_id" = k.id)
  UNION ALL
  SELECT k."replaced_by_id", l.budget FROM lineage l JOIN "api_key" k ON k.id = l.id WHERE k."replaced_by_id" IS NOT NULL
)
UPDATE "api_key" SET "spend_budget_id" = lineage.budget FROM lineage WHERE "api_key".id = lineage.id AND lineage.budget <> lineage.id;

-- Hand-written: generations still in flight carry their key's budget, for their refund.
UPDATE "generation" g SET "spend_budget_id" = coalesce(k."spend_budget_id", k.id)
  FROM "api_key" k WHERE k.id = g."api_key_id" AND g.status IN ('pending', 'processing');

-- Hand-written: the counters of the generations made before this migration (reserved less refunded,
-- by the generation's UTC creation day), per key budget and per account.
WITH net AS (
  SELECT g."account_id", (g."created_at" AT TIME ZONE 'UTC')::date AS day, coalesce(k."spend_budget_id", k.id) AS key_budget,
         sum(CASE e.type WHEN 'reserve' THEN e.amount WHEN 'refund' THEN -e.amount ELSE 0 END) AS used
    FROM "generation" g
    JOIN "ledger_entry" e ON e."generation_id" = g.id AND e.type IN ('reserve', 'refund')
    LEFT JOIN "api_key" k ON k.id = g."api_key_id"
   GROUP BY 1, 2, 3
), per_budget AS (
  SELECT "account_id" AS budget_id, day, "account_id", sum(used) AS used FROM net GROUP BY 1, 2, 3
  UNION ALL
  SELECT key_budget, day, "account_id", sum(used) FROM net WHERE key_budget IS NOT NULL GROUP BY 1, 2, 3
)
INSERT INTO "spend_counter" ("budget_id", "day", "account_id", "used") SELECT budget_id, day, "account_id", used FROM per_budget;

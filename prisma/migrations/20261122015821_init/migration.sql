-- CreateEnum
CREATE TYPE "Plan" AS ENUM ('free', 'starter', 'pro', 'scale', 'enterprise');

-- CreateEnum
CREATE TYPE "Region" AS ENUM ('us', 'eu', 'jp');

-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('primary-owner', 'owner', 'member');

-- CreateEnum
CREATE TYPE "ApiKeyStatus" AS ENUM ('active', 'rotated', 'revoked');

-- CreateEnum
CREATE TYPE "MediaKind" AS ENUM ('image', 'video');

-- CreateEnum
CREATE TYPE "GenerationStatus" AS ENUM ('pending', 'processing', 'succeeded', 'failed', 'canceled');

-- CreateEnum
CREATE TYPE "AttemptOutcome" AS ENUM ('running', 'succeeded', 'failed', 'canceled', 'discarded');

-- CreateEnum
CREATE TYPE "LedgerEntryType" AS ENUM ('reserve', 'charge', 'refund', 'add');

-- CreateEnum
CREATE TYPE "IdempotencyState" AS ENUM ('in_progress', 'completed');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- CreateEnum
CREATE TYPE "ActivityCategory" AS ENUM ('api_key', 'webhook', 'credit', 'generation', 'subscription', 'membership', 'account', 'invitation', 'order', 'billing', 'notification', 'auth', 'domain', 'consent', 'bug_report');

-- CreateEnum
CREATE TYPE "BillingInterval" AS ENUM ('month', 'year');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid');

-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('pending', 'paid', 'credited', 'needs_review', 'refunded', 'failed');

-- CreateEnum
CREATE TYPE "HostnameStatus" AS ENUM ('pending', 'active', 'failed', 'removing');

-- CreateEnum
CREATE TYPE "EmailStatus" AS ENUM ('queued', 'sent', 'failed');

-- CreateTable
CREATE TABLE "account" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "is_personal" BOOLEAN NOT NULL DEFAULT true,
    "picture_url" TEXT,
    "plan" "Plan" NOT NULL DEFAULT 'free',
    "region" "Region" NOT NULL DEFAULT 'us',
    "credit_balance" DECIMAL(12,3) NOT NULL DEFAULT 0,
    "stripe_customer_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "image" TEXT,
    "email_verified" TIMESTAMPTZ(3),
    "welcome_credit_granted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_token" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL
);

-- CreateTable
CREATE TABLE "membership" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "MemberRole" NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "membership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invitation" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL DEFAULT 'member',
    "token_hash" TEXT NOT NULL,
    "invited_by_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" VARCHAR(9) NOT NULL,
    "scopes" TEXT[],
    "region" "Region" NOT NULL,
    "status" "ApiKeyStatus" NOT NULL DEFAULT 'active',
    "ip_allowlist" JSONB,
    "expires_at" TIMESTAMPTZ(3),
    "grace_ends_at" TIMESTAMPTZ(3),
    "rotated_at" TIMESTAMPTZ(3),
    "replaced_by_id" UUID,
    "revoked_at" TIMESTAMPTZ(3),
    "created_by_id" UUID,
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "request_log" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "api_key_id" UUID,
    "request_id" TEXT NOT NULL,
    "key_name" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "key_status" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "query" JSONB NOT NULL DEFAULT '{}',
    "status_code" INTEGER NOT NULL,
    "error_code" TEXT,
    "idempotent_replay" BOOLEAN NOT NULL DEFAULT false,
    "ip_hash" TEXT NOT NULL,
    "user_agent" TEXT,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "generation" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "api_key_id" UUID,
    "region" "Region" NOT NULL,
    "media_kind" "MediaKind" NOT NULL,
    "model_identifier" TEXT NOT NULL,
    "status" "GenerationStatus" NOT NULL DEFAULT 'pending',
    "prompt" TEXT,
    "ratio" TEXT,
    "output_format" TEXT,
    "output_number" INTEGER NOT NULL DEFAULT 1,
    "duration_seconds" INTEGER,
    "resolution" TEXT,
    "generate_audio" BOOLEAN,
    "input_files" TEXT[],
    "input_file_last_content" TEXT,
    "params" JSONB NOT NULL DEFAULT '{}',
    "provider_order" TEXT[],
    "provider_used" TEXT,
    "prediction_id" TEXT,
    "output_keys" TEXT[],
    "estimated_cost" DECIMAL(12,3) NOT NULL,
    "error_code" TEXT,
    "error_message" TEXT,
    "metrics_total_time" DOUBLE PRECISION,
    "metrics_predict_time" DOUBLE PRECISION,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "removed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "generation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_attempt" (
    "id" UUID NOT NULL,
    "generation_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "region" "Region" NOT NULL,
    "model_identifier" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "outcome" "AttemptOutcome" NOT NULL DEFAULT 'running',
    "prediction_id" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "estimated_cost" DECIMAL(12,3) NOT NULL DEFAULT 0,
    "wasted" BOOLEAN NOT NULL DEFAULT false,
    "latency_ms" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "provider_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entry" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "type" "LedgerEntryType" NOT NULL,
    "amount" DECIMAL(12,3) NOT NULL,
    "balance_after" DECIMAL(12,3) NOT NULL,
    "generation_id" UUID,
    "model_identifier" TEXT,
    "description" TEXT NOT NULL,
    "source_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_record" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "request_hash" TEXT NOT NULL,
    "state" "IdempotencyState" NOT NULL DEFAULT 'in_progress',
    "request_id" TEXT NOT NULL,
    "status_code" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "event_key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempt" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "status_code" INTEGER,
    "latency_ms" INTEGER,
    "response_snippet" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dead_letter" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "event_key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "replayed_at" TIMESTAMPTZ(3),
    "replay_delivery_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dead_letter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activity_event" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "actor" TEXT NOT NULL,
    "category" "ActivityCategory" NOT NULL,
    "action" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "user_id" UUID,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "read_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_threshold" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "amount" DECIMAL(12,3) NOT NULL,
    "armed" BOOLEAN NOT NULL DEFAULT true,
    "last_fired_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_threshold_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "plan" "Plan" NOT NULL,
    "interval" "BillingInterval" NOT NULL DEFAULT 'month',
    "status" "SubscriptionStatus" NOT NULL,
    "stripe_subscription_id" TEXT,
    "stripe_price_id" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "current_period_start" TIMESTAMPTZ(3) NOT NULL,
    "current_period_end" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "subscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "credits" DECIMAL(12,3) NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "status" "OrderStatus" NOT NULL DEFAULT 'pending',
    "stripe_checkout_session_id" TEXT,
    "stripe_payment_intent_id" TEXT,
    "purchased_by_id" UUID,
    "review_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_hostname" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "hostname" TEXT NOT NULL,
    "status" "HostnameStatus" NOT NULL DEFAULT 'pending',
    "verification_token" TEXT NOT NULL,
    "last_checked_at" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_hostname_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limit_counter" (
    "bucket" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(0) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "rate_limit_counter_pkey" PRIMARY KEY ("bucket","window_start")
);

-- CreateTable
CREATE TABLE "email_outbox" (
    "id" UUID NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" "EmailStatus" NOT NULL DEFAULT 'queued',
    "provider_id" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "email_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_stripe_customer_id_key" ON "account"("stripe_customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");

-- CreateIndex
CREATE UNIQUE INDEX "verification_token_token_key" ON "verification_token"("token");

-- CreateIndex
CREATE UNIQUE INDEX "verification_token_identifier_token_key" ON "verification_token"("identifier", "token");

-- CreateIndex
CREATE INDEX "membership_user_id_idx" ON "membership"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "membership_account_id_user_id_key" ON "membership"("account_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "invitation_token_hash_key" ON "invitation"("token_hash");

-- CreateIndex
CREATE INDEX "invitation_account_id_idx" ON "invitation"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_hash_key" ON "api_key"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_replaced_by_id_key" ON "api_key"("replaced_by_id");

-- CreateIndex
CREATE INDEX "api_key_account_id_idx" ON "api_key"("account_id");

-- CreateIndex
CREATE INDEX "request_log_account_id_created_at_idx" ON "request_log"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "request_log_api_key_id_created_at_idx" ON "request_log"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "generation_account_id_created_at_idx" ON "generation"("account_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "generation_account_id_media_kind_status_idx" ON "generation"("account_id", "media_kind", "status");

-- CreateIndex
CREATE INDEX "generation_status_created_at_idx" ON "generation"("status", "created_at");

-- CreateIndex
CREATE INDEX "provider_attempt_region_model_identifier_provider_started_a_idx" ON "provider_attempt"("region", "model_identifier", "provider", "started_at");

-- CreateIndex
CREATE INDEX "provider_attempt_provider_started_at_idx" ON "provider_attempt"("provider", "started_at");

-- CreateIndex
CREATE INDEX "provider_attempt_account_id_started_at_idx" ON "provider_attempt"("account_id", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "provider_attempt_generation_id_attempt_number_key" ON "provider_attempt"("generation_id", "attempt_number");

-- CreateIndex
CREATE INDEX "ledger_entry_account_id_created_at_idx" ON "ledger_entry"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_entry_generation_id_idx" ON "ledger_entry"("generation_id");

-- CreateIndex
CREATE INDEX "idempotency_record_expires_at_idx" ON "idempotency_record"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_record_account_id_key_key" ON "idempotency_record"("account_id", "key");

-- CreateIndex
CREATE INDEX "webhook_endpoint_account_id_idx" ON "webhook_endpoint"("account_id");

-- CreateIndex
CREATE INDEX "webhook_delivery_account_id_created_at_idx" ON "webhook_delivery"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_endpoint_id_event_key_key" ON "webhook_delivery"("endpoint_id", "event_key");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempt_delivery_id_attempt_number_key" ON "webhook_attempt"("delivery_id", "attempt_number");

-- CreateIndex
CREATE INDEX "dead_letter_account_id_created_at_idx" ON "dead_letter"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "dead_letter_endpoint_id_event_key_key" ON "dead_letter"("endpoint_id", "event_key");

-- CreateIndex
CREATE INDEX "activity_event_account_id_created_at_idx" ON "activity_event"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "notification_account_id_created_at_idx" ON "notification"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "alert_threshold_account_id_amount_key" ON "alert_threshold"("account_id", "amount");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_account_id_key" ON "subscription"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_stripe_subscription_id_key" ON "subscription"("stripe_subscription_id");

-- CreateIndex
CREATE UNIQUE INDEX "order_stripe_checkout_session_id_key" ON "order"("stripe_checkout_session_id");

-- CreateIndex
CREATE INDEX "order_account_id_created_at_idx" ON "order"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "custom_hostname_account_id_key" ON "custom_hostname"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "custom_hostname_hostname_key" ON "custom_hostname"("hostname");

-- CreateIndex
CREATE INDEX "rate_limit_counter_window_start_idx" ON "rate_limit_counter"("window_start");

-- CreateIndex
CREATE INDEX "email_outbox_created_at_idx" ON "email_outbox"("created_at");

-- AddForeignKey
ALTER TABLE "membership" ADD CONSTRAINT "membership_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "membership" ADD CONSTRAINT "membership_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_replaced_by_id_fkey" FOREIGN KEY ("replaced_by_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "generation" ADD CONSTRAINT "generation_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_attempt" ADD CONSTRAINT "provider_attempt_generation_id_fkey" FOREIGN KEY ("generation_id") REFERENCES "generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_attempt" ADD CONSTRAINT "provider_attempt_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_record" ADD CONSTRAINT "idempotency_record_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempt" ADD CONSTRAINT "webhook_attempt_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dead_letter" ADD CONSTRAINT "dead_letter_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dead_letter" ADD CONSTRAINT "dead_letter_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_event" ADD CONSTRAINT "activity_event_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification" ADD CONSTRAINT "notification_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification" ADD CONSTRAINT "notification_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_threshold" ADD CONSTRAINT "alert_threshold_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subscription" ADD CONSTRAINT "subscription_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order" ADD CONSTRAINT "order_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_hostname" ADD CONSTRAINT "custom_hostname_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Hand-written: what the Prisma schema cannot express (prisma/tools/migrate.ts keeps these out
-- of generated diffs).
-- ---------------------------------------------------------------------------------------------

-- Money never goes negative.
ALTER TABLE "account" ADD CONSTRAINT "account_credit_balance_non_negative" CHECK ("credit_balance" >= 0);
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_amount_non_negative" CHECK ("amount" >= 0);
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_balance_after_non_negative" CHECK ("balance_after" >= 0);
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_add_has_source" CHECK ("type" <> 'add' OR "source_key" IS NOT NULL);
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_add_is_positive" CHECK ("type" <> 'add' OR "amount" > 0);
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_movement_names_generation" CHECK ("type" = 'add' OR "generation_id" IS NOT NULL);
ALTER TABLE "alert_threshold" ADD CONSTRAINT "alert_threshold_positive" CHECK ("amount" > 0);
ALTER TABLE "order" ADD CONSTRAINT "order_credits_positive" CHECK ("credits" > 0);

-- At most one reserve, one charge and one refund per generation; one add per source.
CREATE UNIQUE INDEX "ledger_entry_one_reserve_per_generation" ON "ledger_entry" ("generation_id") WHERE "type" = 'reserve';
CREATE UNIQUE INDEX "ledger_entry_one_charge_per_generation" ON "ledger_entry" ("generation_id") WHERE "type" = 'charge';
CREATE UNIQUE INDEX "ledger_entry_one_refund_per_generation" ON "ledger_entry" ("generation_id") WHERE "type" = 'refund';
-- A reservation ends in exactly one of charge or refund, never both.
CREATE UNIQUE INDEX "ledger_entry_one_settlement_per_generation" ON "ledger_entry" ("generation_id") WHERE "type" IN ('charge', 'refund');
CREATE UNIQUE INDEX "ledger_entry_one_add_per_source" ON "ledger_entry" ("source_key") WHERE "type" = 'add';

-- One primary owner per account.
CREATE UNIQUE INDEX "membership_one_primary_owner_per_account" ON "membership" ("account_id") WHERE "role" = 'primary-owner';

-- The ledger is append-only: rows are never rewritten (retention may delete old ones).
CREATE FUNCTION "ledger_entry_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entry is append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER "ledger_entry_append_only" BEFORE UPDATE ON "ledger_entry"
  FOR EACH ROW EXECUTE FUNCTION "ledger_entry_refuse_update"();

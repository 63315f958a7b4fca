-- CreateEnum
CREATE TYPE "InngestRunStatus" AS ENUM ('running', 'sleeping', 'waiting', 'completed', 'failed');

-- CreateTable
CREATE TABLE "inngest_event" (
    "app_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "dispatched_at" TIMESTAMPTZ(3),

    CONSTRAINT "inngest_event_pkey" PRIMARY KEY ("app_id","id")
);

-- CreateTable
CREATE TABLE "inngest_run" (
    "id" UUID NOT NULL,
    "app_id" TEXT NOT NULL,
    "function_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "events" JSONB NOT NULL,
    "status" "InngestRunStatus" NOT NULL DEFAULT 'running',
    "steps" JSONB NOT NULL DEFAULT '{}',
    "stack" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "attempts" JSONB NOT NULL DEFAULT '{}',
    "next_step_id" TEXT,
    "disable_immediate_execution" BOOLEAN NOT NULL DEFAULT false,
    "pending" JSONB NOT NULL DEFAULT '[]',
    "wait_events" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "wake_at" TIMESTAMPTZ(3),
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "output" JSONB,
    "error" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "inngest_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inngest_cron_tick" (
    "function_id" TEXT NOT NULL,
    "tick_at" TIMESTAMPTZ(3) NOT NULL,
    "run_id" UUID NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inngest_cron_tick_pkey" PRIMARY KEY ("function_id","tick_at")
);

-- CreateIndex
CREATE INDEX "inngest_event_app_id_dispatched_at_received_at_idx" ON "inngest_event"("app_id", "dispatched_at", "received_at");

-- CreateIndex
CREATE INDEX "inngest_event_app_id_name_received_at_idx" ON "inngest_event"("app_id", "name", "received_at");

-- CreateIndex
CREATE INDEX "inngest_run_app_id_status_wake_at_idx" ON "inngest_run"("app_id", "status", "wake_at");

-- CreateIndex
CREATE INDEX "inngest_run_app_id_event_id_idx" ON "inngest_run"("app_id", "event_id");

-- CreateIndex
CREATE INDEX "inngest_run_wait_events_idx" ON "inngest_run" USING GIN ("wait_events");

-- CreateTable
CREATE TABLE "service_state" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "reason" TEXT,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_state_pkey" PRIMARY KEY ("id")
);

-- One row only: the switch is global.
ALTER TABLE "service_state" ADD CONSTRAINT "service_state_single_row" CHECK ("id" = 1);

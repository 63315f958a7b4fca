-- The dashboard's playground (server/playground): which roles may run models from the dashboard
-- (owners and members by default; the primary owner always may), the account's "Dashboard
-- playground" key the runs are attributed to (its value is never issued), and who ran what.
ALTER TABLE "account" ADD COLUMN "playground_run_roles" "MemberRole"[] NOT NULL DEFAULT ARRAY['primary-owner', 'owner', 'member']::"MemberRole"[];

ALTER TABLE "api_key" ADD COLUMN "playground" BOOLEAN NOT NULL DEFAULT false;
-- At most one playground key per account, whatever its state (a revoked one stops the playground
-- until it is deleted).
CREATE UNIQUE INDEX "api_key_one_playground_key" ON "api_key"("account_id") WHERE "playground";

CREATE TABLE "playground_run" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "generation_id" UUID NOT NULL,
    "comparison_id" UUID,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "playground_run_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "playground_run_generation_id_key" ON "playground_run"("generation_id");
CREATE INDEX "playground_run_account_id_user_id_created_at_idx" ON "playground_run"("account_id", "user_id", "created_at" DESC);
CREATE INDEX "playground_run_comparison_id_idx" ON "playground_run"("comparison_id");

ALTER TABLE "playground_run" ADD CONSTRAINT "playground_run_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "playground_run" ADD CONSTRAINT "playground_run_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "playground_run" ADD CONSTRAINT "playground_run_generation_id_fkey" FOREIGN KEY ("generation_id") REFERENCES "generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "generation" ADD COLUMN     "deadline_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "generation_deadline_at_idx" ON "generation"("deadline_at");

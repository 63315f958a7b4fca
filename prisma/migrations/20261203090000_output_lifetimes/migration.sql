-- AlterTable
ALTER TABLE "generation" ADD COLUMN     "output_link_ttl_seconds" INTEGER,
ADD COLUMN     "output_retention_seconds" INTEGER;

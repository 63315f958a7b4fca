-- CreateEnum
CREATE TYPE "StorageFallback" AS ENUM ('fail', 'darkroom');

-- AlterTable
ALTER TABLE "generation" ADD COLUMN     "output_destination" JSONB,
ADD COLUMN     "output_locations" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "storage_destination" (
    "account_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "prefix" TEXT NOT NULL DEFAULT '',
    "access_key_id" TEXT NOT NULL,
    "secret_access_key" TEXT NOT NULL,
    "secret_key_id" TEXT NOT NULL,
    "path_style" BOOLEAN NOT NULL DEFAULT false,
    "link_ttl_seconds" INTEGER,
    "public_base_url" TEXT,
    "fallback" "StorageFallback" NOT NULL DEFAULT 'fail',
    "verified_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "storage_destination_pkey" PRIMARY KEY ("account_id")
);

-- AddForeignKey
ALTER TABLE "storage_destination" ADD CONSTRAINT "storage_destination_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

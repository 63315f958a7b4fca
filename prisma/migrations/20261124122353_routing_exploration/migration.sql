-- AlterTable
ALTER TABLE "generation" ADD COLUMN     "routing_exploration" BOOLEAN NOT NULL DEFAULT false;

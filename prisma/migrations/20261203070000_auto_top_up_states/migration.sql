-- An auto top-up's order states (used by the next migration: a new enum value is usable only once committed).
-- AlterEnum
ALTER TYPE "OrderStatus" ADD VALUE 'processing';
ALTER TYPE "OrderStatus" ADD VALUE 'failed';
ALTER TYPE "OrderStatus" ADD VALUE 'requires_action';
ALTER TYPE "OrderStatus" ADD VALUE 'canceled';

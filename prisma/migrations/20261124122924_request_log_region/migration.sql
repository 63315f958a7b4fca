-- AlterTable
ALTER TABLE "request_log" ADD COLUMN     "region" "Region";

-- Rows written before the region was recorded: the key's region, the only one it could be served
-- in (a key from another region is refused, and those refusals were rare). Usage counts per region.
UPDATE "request_log" AS log SET "region" = key."region" FROM "api_key" AS key WHERE log."api_key_id" = key."id" AND log."region" IS NULL;

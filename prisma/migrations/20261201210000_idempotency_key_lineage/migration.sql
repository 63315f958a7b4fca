-- An Idempotency-Key's record is bound to the API key's lineage (the key and the keys rotated from
-- it: coalesce(spend_budget_id, id)) as well as the account, so another key of the account never
-- gets this key's stored answer.
ALTER TABLE "idempotency_record" ADD COLUMN "api_key_lineage_id" UUID;

-- Hand-written: a stored answer names its generation, and the generation its key (compared as a
-- uuid, so the generation's primary key finds it: no scan of the generation table under the lock).
UPDATE "idempotency_record" r
   SET "api_key_lineage_id" = coalesce(k."spend_budget_id", k."id")
  FROM "generation" g
  JOIN "api_key" k ON k."id" = g."api_key_id"
 WHERE g."account_id" = r."account_id"
   AND g."id" = CASE WHEN r."response_body" -> 'data' ->> 'generation_id' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                     THEN (r."response_body" -> 'data' ->> 'generation_id')::uuid END;

-- Hand-written: a record with no key to name (a claim in progress, at most a minute old, or one
-- whose generation is gone) cannot be bound; it is dropped, as an abandoned claim would be.
DELETE FROM "idempotency_record" WHERE "api_key_lineage_id" IS NULL;

ALTER TABLE "idempotency_record" ALTER COLUMN "api_key_lineage_id" SET NOT NULL;

-- DropIndex
DROP INDEX "idempotency_record_account_id_key_key";

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_record_account_id_api_key_lineage_id_key_key" ON "idempotency_record"("account_id", "api_key_lineage_id", "key");

-- What the provider charged us for an attempt (USD, from the catalog's per-provider cost), set when
-- its outputs exist: a success, or outputs made and then thrown away. NULL: not charged, or no cost
-- in the catalog. Nullable, so instances still on the old code keep writing attempts.
ALTER TABLE "provider_attempt" ADD COLUMN "provider_cost" DECIMAL(14,6);

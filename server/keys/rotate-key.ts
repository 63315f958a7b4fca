import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { newApiKey } from "./generate-key";
import { keyStateAt } from "./key-state";
import { isGuid } from "../base/guid";

// Rotation: a new key with the same name, scopes, region, allowlist, expiry and spend budget; the old
// key stays valid for a grace period (default 24 h, 1..168 h), then stops working.

export const DEFAULT_GRACE_HOURS = 24;
export const MIN_GRACE_HOURS = 1;
export const MAX_GRACE_HOURS = 168;
const HOUR_MS = 3_600_000;

export type RotateApiKeyInput = {
  keyId: string;
  graceHours?: number;
  actor: ActivityActor;
};

export type RotatedApiKey = {
  /** The new key's id. */
  apikey_id: string;
  /** The new key's full value: shown once, never stored. */
  key: string;
  apikey_prefix: string;
  apikey_name: string;
  /** The old key's id. */
  replaced_apikey_id: string;
  /** When the old key stops working: the end of the grace period, or its expiry if sooner. */
  old_key_valid_until: string;
};

export async function rotateApiKey(tx: Tx, scope: AccountScope, input: RotateApiKeyInput): Promise<RotatedApiKey> {
  const graceHours = input.graceHours ?? DEFAULT_GRACE_HOURS;
  if (!Number.isInteger(graceHours) || graceHours < MIN_GRACE_HOURS || graceHours > MAX_GRACE_HOURS) {
    throw invalidRequest(`The grace period must be a whole number of hours from ${MIN_GRACE_HOURS} to ${MAX_GRACE_HOURS}.`, [
      { field: "grace_hours", message: `must be an integer from ${MIN_GRACE_HOURS} to ${MAX_GRACE_HOURS}` },
    ]);
  }

  const old = isGuid(input.keyId) ? await tx.apiKey.findFirst({ where: { id: input.keyId, ...scopeWhere(scope) } }) : null;
  if (!old) throw new ApiError("ERR1006", "API key not found.", { apikey_id: input.keyId });
  if (old.playground) {
    throw invalidRequest(
      "The Dashboard playground key has no value to rotate: it only attributes the dashboard's runs. Revoke or delete it instead.",
      [{ field: "apikey_id", message: "is the Dashboard playground key" }],
    );
  }
  const now = new Date();
  const { state } = keyStateAt(old, now);
  if (state !== "active") {
    throw invalidRequest(`Only active keys can be rotated; this key is ${state}.`, [{ field: "apikey_id", message: `key is ${state}` }]);
  }

  const { key, hash, prefix } = newApiKey();
  const replacement = await tx.apiKey.create({
    data: {
      accountId: old.accountId,
      name: old.name,
      hash,
      prefix,
      scopes: old.scopes,
      region: old.region,
      ipAllowlist: old.ipAllowlist ?? undefined,
      expiresAt: old.expiresAt,
      // The same budget: the successor keeps the limit and shares the period's spend.
      spendBudgetId: old.spendBudgetId ?? old.id,
      spendLimit: old.spendLimit,
      spendPeriod: old.spendPeriod,
      createdById: old.createdById,
    },
    select: { id: true },
  });

  const graceEndsAt = new Date(now.getTime() + graceHours * HOUR_MS);
  // Conditional on still being active: of two concurrent rotations, the second updates nothing
  // and fails, rolling back its replacement key.
  const { count } = await tx.apiKey.updateMany({
    where: { id: old.id, status: "active" },
    data: { status: "rotated", rotatedAt: now, graceEndsAt, replacedById: replacement.id },
  });
  if (count !== 1)
    throw invalidRequest("The key was rotated or revoked concurrently.", [{ field: "apikey_id", message: "key is no longer active" }]);

  const validUntil = old.expiresAt && old.expiresAt < graceEndsAt ? old.expiresAt : graceEndsAt;
  await recordActivity(tx, {
    accountId: old.accountId,
    actor: input.actor,
    category: "api_key",
    action: "api_key.rotated",
    description: `API key "${old.name}" (${old.prefix}) rotated to ${prefix}; the old key works until ${validUntil.toISOString()}`,
    metadata: {
      apikey_id: replacement.id,
      apikey_prefix: prefix,
      replaced_apikey_id: old.id,
      replaced_apikey_prefix: old.prefix,
      grace_hours: graceHours,
      old_key_valid_until: validUntil.toISOString(),
    },
  });

  return {
    apikey_id: replacement.id,
    key,
    apikey_prefix: prefix,
    apikey_name: old.name,
    replaced_apikey_id: old.id,
    old_key_valid_until: validUntil.toISOString(),
  };
}

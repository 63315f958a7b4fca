import "server-only";
import type { ApiKey } from "../base/generated/prisma/client";
import { keyStateAt } from "./key-state";
import { presetOfScopes } from "./scopes";

// A key as the dashboard shows it: metadata only (never the hash), with its state now and, for a
// rotated key, when its grace ends. The preset is named when the scopes are exactly a preset's.

export function toApiKeyRecord(row: ApiKey, now: Date = new Date()) {
  const { state, acceptsRequests } = keyStateAt(row, now);
  return {
    apikey_id: row.id,
    apikey_name: row.name,
    apikey_prefix: row.prefix,
    apikey_created_at: row.createdAt.toISOString(),
    apikey_last_used_at: row.lastUsedAt?.toISOString() ?? null,
    apikey_expires_at: row.expiresAt?.toISOString() ?? null,
    scopes: row.scopes,
    preset: presetOfScopes(row.scopes),
    region: row.region,
    ip_allowlist: Array.isArray(row.ipAllowlist) ? (row.ipAllowlist as string[]) : null,
    state,
    accepts_requests: acceptsRequests,
    grace_ends_at: row.graceEndsAt?.toISOString() ?? null,
    rotated_at: row.rotatedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    replaced_by_id: row.replacedById,
    /** The account's Dashboard playground key (server/playground): no value was ever issued. */
    playground: row.playground,
  };
}

export type ApiKeyRecord = ReturnType<typeof toApiKeyRecord>;

import "server-only";
import type { AuthenticatedKey } from "./authenticated-key";

/** GET /v1/status: the key making the request and its account. */
export function keyStatus(key: AuthenticatedKey) {
  return {
    account_id: key.account.id,
    apikey_id: key.id,
    apikey_name: key.name,
    apikey_prefix: key.prefix,
    apikey_created_at: key.createdAt.toISOString(),
    // This request is a use of the key; the request log records the same moment.
    apikey_last_used_at: new Date().toISOString(),
    apikey_expires_at: key.expiresAt?.toISOString() ?? null,
  };
}

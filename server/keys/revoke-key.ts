import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { isGuid } from "../base/guid";

// Revoke: the key stops working at once, including a rotated key still in its
// grace period; its metadata stays for audit. Revoking a revoked key changes nothing.

export type RevokeApiKeyInput = {
  keyId: string;
  actor: ActivityActor;
};

export async function revokeApiKey(
  tx: Tx,
  scope: AccountScope,
  input: RevokeApiKeyInput,
): Promise<{ apikey_id: string; status: "revoked"; changed: boolean }> {
  const key = isGuid(input.keyId)
    ? await tx.apiKey.findFirst({
        where: { id: input.keyId, ...scopeWhere(scope) },
        select: { id: true, accountId: true, name: true, prefix: true, status: true },
      })
    : null;
  if (!key) throw new ApiError("ERR1006", "API key not found.", { apikey_id: input.keyId });

  const { count } = await tx.apiKey.updateMany({
    where: { id: key.id, status: { not: "revoked" } },
    data: { status: "revoked", revokedAt: new Date() },
  });
  if (count === 0) return { apikey_id: key.id, status: "revoked", changed: false };

  await recordActivity(tx, {
    accountId: key.accountId,
    actor: input.actor,
    category: "api_key",
    action: "api_key.revoked",
    description: `API key "${key.name}" (${key.prefix}) revoked`,
    metadata: { apikey_id: key.id, apikey_prefix: key.prefix, previous_status: key.status },
  });
  return { apikey_id: key.id, status: "revoked", changed: true };
}

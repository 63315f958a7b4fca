import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { isGuid } from "../base/guid";

// Delete: the key row goes for good and its request logs with it (ON DELETE
// CASCADE). The activity event stays, naming only the key's id, name and display prefix.

export type DeleteApiKeyInput = {
  keyId: string;
  actor: ActivityActor;
};

export async function deleteApiKey(tx: Tx, scope: AccountScope, input: DeleteApiKeyInput): Promise<{ apikey_id: string; deleted: true }> {
  const key = isGuid(input.keyId)
    ? await tx.apiKey.findFirst({
        where: { id: input.keyId, ...scopeWhere(scope) },
        select: { id: true, accountId: true, name: true, prefix: true },
      })
    : null;
  if (!key) throw new ApiError("ERR1006", "API key not found.", { apikey_id: input.keyId });

  // deleteMany: a concurrent delete leaves nothing to delete, which is the same outcome.
  const { count } = await tx.apiKey.deleteMany({ where: { id: key.id } });
  if (count === 0) throw new ApiError("ERR1006", "API key not found.", { apikey_id: input.keyId });

  await recordActivity(tx, {
    accountId: key.accountId,
    actor: input.actor,
    category: "api_key",
    action: "api_key.deleted",
    description: `API key "${key.name}" (${key.prefix}) deleted with its request logs`,
    metadata: { apikey_id: key.id, apikey_prefix: key.prefix },
  });
  return { apikey_id: key.id, deleted: true };
}

import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { toApiKeyRecord, type ApiKeyRecord } from "./key-record";
import { isGuid } from "../base/guid";

/** One key's metadata, or ERR1006: under an account scope another account's key is not found. */
export async function findApiKey(db: Db, scope: AccountScope, keyId: string): Promise<ApiKeyRecord> {
  const row = isGuid(keyId) ? await db.apiKey.findFirst({ where: { id: keyId, ...scopeWhere(scope) } }) : null;
  if (!row) throw new ApiError("ERR1006", "API key not found.", { apikey_id: keyId });
  return toApiKeyRecord(row);
}

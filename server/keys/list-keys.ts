import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { toApiKeyRecord, type ApiKeyRecord } from "./key-record";

// The keys of an account, newest first, in every state but deleted (revoked keys stay for audit).
// Anyone who may see the account may list them: values are never stored, only metadata is shown.

export async function listApiKeys(db: Db, scope: AccountScope): Promise<ApiKeyRecord[]> {
  const rows = await db.apiKey.findMany({ where: scopeWhere(scope), orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const now = new Date();
  return rows.map((row) => toApiKeyRecord(row, now));
}

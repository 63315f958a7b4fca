import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";

/** The endpoints an account's request log holds rows for, for the endpoint filter. */
export async function listLoggedEndpoints(db: Db, scope: AccountScope): Promise<string[]> {
  const groups = await db.requestLog.groupBy({ by: ["endpoint"], where: scopeWhere(scope), orderBy: { endpoint: "asc" } });
  return groups.map((group) => group.endpoint);
}

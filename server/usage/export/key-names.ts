import "server-only";
import type { OneAccount } from "../../base/account-scope";
import type { Db } from "../../base/db";

// The current name of each of the account's API keys, read once as an export starts (an account
// has tens of keys, not millions). A deleted key is not there: its rows get an empty name.

export async function currentKeyNames(database: Db, scope: OneAccount): Promise<ReadonlyMap<string, string>> {
  const keys = await database.apiKey.findMany({ where: { accountId: scope.accountId }, select: { id: true, name: true } });
  return new Map(keys.map((key) => [key.id, key.name]));
}

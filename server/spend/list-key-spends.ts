import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { keySpendOf, keySpendSelect, type KeySpend } from "./key-spend";

// Every key's budget of an account, by key id (the dashboard's keys table).

export async function listKeySpends(db: Db, scope: AccountScope, now = new Date()): Promise<Record<string, KeySpend>> {
  const keys = await db.apiKey.findMany({ where: scopeWhere(scope), select: keySpendSelect });
  const spends = await Promise.all(keys.map((key) => keySpendOf(db, key, now)));
  return Object.fromEntries(spends.map((spend) => [spend.apikey_id, spend]));
}

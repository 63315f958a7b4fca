import type { Db } from "../base/db";
import { MILLIS_PER_CREDIT, type Millicredits } from "../base/money";
import { getAccountSpend } from "./account-spend";
import { requestingKeySpend } from "./key-spend";
import { accountScope } from "../base/account-scope";

// What a key may still spend now: the smaller room of its own budget and the account's monthly
// limit (0 when either is used up), or null when neither has a limit. GET /v1/estimate reads it.

const toMillis = (credits: number) => Math.round(credits * MILLIS_PER_CREDIT);

export async function spendRemaining(db: Db, accountId: string, keyId: string, now = new Date()): Promise<Millicredits | null> {
  const scope = accountScope(accountId);
  const [key, account] = await Promise.all([requestingKeySpend(db, scope, keyId, now), getAccountSpend(db, scope, accountId, now)]);
  const rooms = [
    key.spend_limit === null ? null : toMillis(key.spend_limit) - toMillis(key.spend_used),
    account.monthly_spend_limit === null ? null : toMillis(account.monthly_spend_limit) - toMillis(account.spend_used),
  ].filter((room): room is number => room !== null);
  return rooms.length === 0 ? null : Math.max(0, Math.min(...rooms));
}

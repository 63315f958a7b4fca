import "server-only";
import type pg from "pg";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";

// Callers (the key as it was, the client's address HMAC and agent) and routes are kept while a row
// uses them. An entry's last_seen_at is at most a minute behind its newest row (the writer moves it
// forward past that), so once no row older than `before` is left (in one account, or anywhere),
// an entry last seen more than a minute before `before` is used by none and goes. A writer about
// to use such an entry holds it FOR KEY SHARE, so it is kept (its last_seen_at then moves forward).

export type ForgottenEntries = { callers: number; routes: number };

/** Every account's entries last seen before `before` (no week older than `before` is left). */
export async function forgetUnusedEntries(pool: Pick<pg.Pool, "query">, before: Date): Promise<ForgottenEntries> {
  const at = before.toISOString();
  const callers = await pool.query("DELETE FROM request_log_caller WHERE last_seen_at < $1::timestamptz - interval '1 minute'", [at]);
  const routes = await pool.query("DELETE FROM request_log_route WHERE last_seen_at < $1::timestamptz - interval '1 minute'", [at]);
  return { callers: callers.rowCount ?? 0, routes: routes.rowCount ?? 0 };
}

/** One account's entries last seen before `before` (none of its rows older than `before` is left). */
export async function forgetUnusedAccountEntries(db: Db, scope: OneAccount, before: Date): Promise<ForgottenEntries> {
  const at = before.toISOString();
  const callers = await db.$executeRaw`
    DELETE FROM request_log_caller c USING request_log_key k, request_log_account a
     WHERE c.key_no = k.key_no AND k.account_no = a.account_no AND a.account_id = ${scope.accountId}::uuid
       AND c.last_seen_at < ${at}::timestamptz - interval '1 minute'`;
  const routes = await db.$executeRaw`
    DELETE FROM request_log_route t USING request_log_account a
     WHERE t.account_no = a.account_no AND a.account_id = ${scope.accountId}::uuid AND t.last_seen_at < ${at}::timestamptz - interval '1 minute'`;
  return { callers, routes };
}

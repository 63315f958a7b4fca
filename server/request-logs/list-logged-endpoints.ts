import "server-only";
import type { AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { requestLogWindowStart } from "./request-log-window";

/**
 * The endpoints the account's log shows rows for (within its plan's window), for the endpoint
 * filter: read from its routes (one entry per method, endpoint and region it called, with when it
 * last did), never from its rows, so the read is bounded by the routes there are.
 */
export async function listLoggedEndpoints(db: Db, scope: AccountScope, now = new Date()): Promise<string[]> {
  const since = await requestLogWindowStart(db, scope, now);
  if (since === null) return [];
  // last_seen_at may lag its newest row by a minute (insert-request-logs.ts).
  const seen = new Date(since.getTime() - 60_000).toISOString();
  const rows =
    "accountId" in scope
      ? await db.$queryRaw<Array<{ endpoint: string }>>`
          SELECT DISTINCT t.endpoint FROM request_log_route t JOIN request_log_account a USING (account_no)
           WHERE a.account_id = ${scope.accountId}::uuid AND t.last_seen_at >= ${seen}::timestamptz ORDER BY 1`
      : await db.$queryRaw<Array<{ endpoint: string }>>`
          SELECT DISTINCT endpoint FROM request_log_route WHERE last_seen_at >= ${seen}::timestamptz ORDER BY 1`;
  return rows.map((row) => row.endpoint);
}

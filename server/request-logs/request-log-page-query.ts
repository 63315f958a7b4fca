import "server-only";
import { Prisma } from "../base/generated/prisma/client";
import type { RequestLogRowId } from "./request-log-id";

// The statement of one page of the request log (list-request-logs.ts), newest first. Every bound
// on time is given twice: in whole seconds (request_log_second(), what the indexes hold, so the
// read is a range of the account's index, or the key's) and exactly (created_at); the weeks
// outside the range are pruned. Rows of a second come out by created_at, then id.

export type RequestLogPageInput = {
  /** null: every account (the operator). */
  accountId: string | null;
  keyId?: string;
  /** Inclusive. */
  since: Date;
  /** Exclusive. */
  to?: Date;
  /** The last row of the previous page. */
  after?: RequestLogRowId | null;
  status?: { gte: number; lt: number };
  endpoint?: string;
  /** ERR1002 as 1002. */
  errorCode?: number;
  limit: number;
};

const at = (moment: Date) => Prisma.sql`${moment.toISOString()}::timestamptz`;

export function requestLogPageQuery(input: RequestLogPageInput): Prisma.Sql {
  const { accountId, keyId, since, to, after, status, endpoint, errorCode, limit } = input;
  const accountNo =
    accountId === null ? null : Prisma.sql`(SELECT account_no FROM request_log_account WHERE account_id = ${accountId}::uuid)`;
  const conditions: Prisma.Sql[] = [
    Prisma.sql`request_log_second(r.created_at) >= request_log_second(${at(since)}) AND r.created_at >= ${at(since)}`,
  ];
  if (accountNo) conditions.push(Prisma.sql`r.account_no = ${accountNo}`);
  if (keyId !== undefined) conditions.push(Prisma.sql`r.key_no = (SELECT key_no FROM request_log_key WHERE api_key_id = ${keyId}::uuid)`);
  if (to) conditions.push(Prisma.sql`request_log_second(r.created_at) <= request_log_second(${at(to)}) AND r.created_at < ${at(to)}`);
  if (after)
    conditions.push(
      Prisma.sql`request_log_second(r.created_at) <= request_log_second(${at(after.createdAt)}) AND (r.created_at, r.id) < (${at(after.createdAt)}, ${after.id}::integer)`,
    );
  if (status) conditions.push(Prisma.sql`r.status_code >= ${status.gte} AND r.status_code < ${status.lt}`);
  if (endpoint !== undefined) {
    const ofAccount = accountNo ? Prisma.sql` AND account_no = ${accountNo}` : Prisma.empty;
    conditions.push(Prisma.sql`r.route_no = ANY (ARRAY(SELECT route_no FROM request_log_route WHERE endpoint = ${endpoint}${ofAccount}))`);
  }
  if (errorCode !== undefined) conditions.push(Prisma.sql`r.error_code = ${errorCode}::smallint`);
  return Prisma.sql`
    SELECT r.created_at, r.id, r.request_id::text AS request_id, r.request_ref, k.api_key_id::text AS api_key_id,
           c.key_name, c.key_prefix, c.key_state, t.method, t.endpoint, r.query, r.status_code::integer AS status_code,
           r.error_code::integer AS error_code, r.idempotent_replay, c.ip_hash, c.user_agent, r.latency_ms
      FROM request_log_row r
      JOIN request_log_key k ON k.key_no = r.key_no
      JOIN request_log_caller c ON c.caller_no = r.caller_no
      JOIN request_log_route t ON t.route_no = r.route_no
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY request_log_second(r.created_at) DESC, r.created_at DESC, r.id DESC
     LIMIT ${limit}`;
}

import "server-only";
import { z } from "zod";
import type { AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { Prisma } from "../base/generated/prisma/client";
import { decodePositionCursor, encodePositionCursor } from "../base/pagination/position-cursor";
import { findApiKey } from "../keys/find-key";
import { errorCodeNumber } from "./insert-request-logs";
import { toRequestLogEntry, type RequestLogEntry, type RequestLogRecord } from "./request-log-entry";
import { parseRequestLogId, requestLogId } from "./request-log-id";
import { requestLogWindowStart } from "./request-log-window";

// The request log of an account (or of one of its keys), newest first, filtered by key, status
// class, endpoint, error code and time range, paged with a cursor, never older than the plan's
// window. Members may read it. Each read is a range of one index (the account's, or the key's)
// over the weeks the window and the range reach: README.md.

export const statusClasses = ["2xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof statusClasses)[number];

const statusRanges: Record<StatusClass, { gte: number; lt: number }> = {
  "2xx": { gte: 200, lt: 300 },
  "4xx": { gte: 400, lt: 500 },
  "5xx": { gte: 500, lt: 600 },
};

export const requestLogFilters = z
  .object({
    keyId: z.string().max(100).optional(),
    statusClass: z.enum(statusClasses).optional(),
    endpoint: z.string().min(1).max(200).optional(),
    errorCode: z
      .string()
      .regex(/^ERR\d{4}$/, "must look like ERR1002")
      .optional(),
    /** Inclusive. */
    from: z.date().optional(),
    /** Exclusive. */
    to: z.date().optional(),
    cursor: z.string().max(200).optional(),
    limit: z.int().min(1).max(100).default(50),
  })
  .refine((filters) => !filters.from || !filters.to || filters.from < filters.to, { message: "must be after from", path: ["to"] });

export type RequestLogFilters = z.input<typeof requestLogFilters>;

export type RequestLogPage = { data: RequestLogEntry[]; next_cursor: string | null; limit: number };

const at = (moment: Date) => Prisma.sql`${moment.toISOString()}::timestamptz`;

/** A key id that is malformed or another account's is ERR1006, like one that does not exist. `now`: the window's end (tests). */
export async function listRequestLogs(
  db: Db,
  scope: AccountScope,
  filters: RequestLogFilters = {},
  options: { now?: Date } = {},
): Promise<RequestLogPage> {
  const { keyId, statusClass, endpoint, errorCode, from, to, cursor, limit } = requestLogFilters.parse(filters);
  if (keyId !== undefined) await findApiKey(db, scope, keyId);
  const after = cursor === undefined ? null : decodeCursor(cursor);
  const windowStart = await requestLogWindowStart(db, scope, options.now ?? new Date());
  if (windowStart === null) return { data: [], next_cursor: null, limit };
  const since = from && from > windowStart ? from : windowStart;

  const accountNo =
    "accountId" in scope ? Prisma.sql`(SELECT account_no FROM request_log_account WHERE account_id = ${scope.accountId}::uuid)` : null;
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
  if (statusClass)
    conditions.push(Prisma.sql`r.status_code >= ${statusRanges[statusClass].gte} AND r.status_code < ${statusRanges[statusClass].lt}`);
  if (endpoint !== undefined)
    conditions.push(
      Prisma.sql`r.route_no = ANY (ARRAY(SELECT route_no FROM request_log_route WHERE endpoint = ${endpoint}${accountNo ? Prisma.sql` AND account_no = ${accountNo}` : Prisma.empty}))`,
    );
  if (errorCode !== undefined) conditions.push(Prisma.sql`r.error_code = ${errorCodeNumber(errorCode)}::smallint`);

  const rows = await db.$queryRaw<RequestLogRecord[]>`
    SELECT r.created_at, r.id, r.request_id::text AS request_id, r.request_ref, k.api_key_id::text AS api_key_id,
           c.key_name, c.key_prefix, c.key_state, t.method, t.endpoint, r.query, r.status_code::integer AS status_code,
           r.error_code::integer AS error_code, r.idempotent_replay, c.ip_hash, c.user_agent, r.latency_ms
      FROM request_log_row r
      JOIN request_log_key k ON k.key_no = r.key_no
      JOIN request_log_caller c ON c.caller_no = r.caller_no
      JOIN request_log_route t ON t.route_no = r.route_no
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY request_log_second(r.created_at) DESC, r.created_at DESC, r.id DESC
     LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toRequestLogEntry),
    next_cursor:
      rows.length > limit && last
        ? encodePositionCursor({ createdAt: last.created_at, id: requestLogId({ createdAt: last.created_at, id: last.id }) })
        : null,
    limit,
  };
}

/** The row after which the page starts; a cursor this list did not give out is ERR1001. */
function decodeCursor(cursor: string) {
  const position = decodePositionCursor(cursor);
  const row = parseRequestLogId(position.id);
  if (!row || row.createdAt.getTime() !== position.createdAt.getTime())
    throw invalidRequest("The cursor is not one this list gave out.", [{ field: "cursor", message: "is not a valid cursor" }]);
  return row;
}

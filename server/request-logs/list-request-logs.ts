import "server-only";
import { z } from "zod";
import type { AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { decodePositionCursor, encodePositionCursor } from "../base/pagination/position-cursor";
import { findApiKey } from "../keys/find-key";
import { errorCodeNumber } from "./request-log-batch";
import { toRequestLogEntry, type RequestLogEntry, type RequestLogRecord } from "./request-log-entry";
import { parseRequestLogId, requestLogId } from "./request-log-id";
import { requestLogPageQuery } from "./request-log-page-query";
import { requestLogWindowStart } from "./request-log-window";

// The request log of an account (or of one of its keys), newest first, filtered by key, status
// class, endpoint, error code and time range, paged with a cursor, never older than the plan's
// window. Members may read it. The statement: request-log-page-query.ts.

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

  const rows = await db.$queryRaw<RequestLogRecord[]>(
    requestLogPageQuery({
      accountId: "accountId" in scope ? scope.accountId : null,
      keyId,
      since,
      to,
      after,
      status: statusClass ? statusRanges[statusClass] : undefined,
      endpoint,
      errorCode: errorCode === undefined ? undefined : errorCodeNumber(errorCode),
      limit: limit + 1,
    }),
  );
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

import "server-only";
import { z } from "zod";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import type { Prisma } from "../base/generated/prisma/client";
import { findApiKey } from "../keys/find-key";
import { afterPosition, decodePositionCursor, encodePositionCursor } from "../base/pagination/position-cursor";
import { toRequestLogEntry, type RequestLogEntry } from "./request-log-entry";

// The request log of an account (or of one of its keys), newest first, filtered by key, status
// class, endpoint, error code and time range, paged with a cursor. Members may read it.

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

/** A key id that is malformed or another account's is ERR1006, like one that does not exist. */
export async function listRequestLogs(db: Db, scope: AccountScope, filters: RequestLogFilters = {}): Promise<RequestLogPage> {
  const { keyId, statusClass, endpoint, errorCode, from, to, cursor, limit } = requestLogFilters.parse(filters);
  if (keyId !== undefined) await findApiKey(db, scope, keyId);
  const after = cursor === undefined ? null : decodePositionCursor(cursor);

  const where: Prisma.RequestLogWhereInput = {
    ...scopeWhere(scope),
    apiKeyId: keyId,
    statusCode: statusClass ? statusRanges[statusClass] : undefined,
    endpoint,
    errorCode,
    AND: [{ createdAt: { gte: from, lt: to } }, afterPosition(after)],
  };
  const rows = await db.requestLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map(toRequestLogEntry), next_cursor: rows.length > limit && last ? encodePositionCursor(last) : null, limit };
}

import "server-only";
import { Prisma } from "../base/generated/prisma/client";
import type { Db } from "../base/db";
import { toStoredEvent, type EventRow, type StoredEvent } from "./live-event";

// The events a resumed stream missed: after the client's Last-Event-ID, up to the hub's watermark
// (everything settled), of the stream's account (and generation or model), oldest first, one page
// at a time (keyset on id), so a long backlog is never held whole.

export type BacklogFilter = { accountId: string; generationId?: string; modelIdentifier?: string };

/** A resume further back than this is answered with a reset instead of the history. */
export const RESUME_LIMITS = { events: 10_000, hours: 24 };

const narrowed = (filter: BacklogFilter, after: bigint, upTo: bigint | null) => Prisma.sql`
  account_id = ${filter.accountId}::uuid AND id > ${after.toString()}::bigint
  ${upTo === null ? Prisma.empty : Prisma.sql`AND id <= ${upTo.toString()}::bigint`}
  ${filter.generationId ? Prisma.sql`AND generation_id = ${filter.generationId}::uuid` : Prisma.empty}
  ${filter.modelIdentifier ? Prisma.sql`AND model_identifier = ${filter.modelIdentifier}` : Prisma.empty}`;

export async function readEventBacklog(
  client: Db,
  filter: BacklogFilter,
  after: bigint,
  upTo: bigint,
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await client.$queryRaw<EventRow[]>`
    SELECT id::text AS id, account_id::text AS account_id, generation_id::text AS generation_id, api_key_id::text AS api_key_id, model_identifier, name, payload
      FROM generation_event
     WHERE ${narrowed(filter, after, upTo)}
     ORDER BY generation_event.id
     LIMIT ${limit}`;
  return rows.map(toStoredEvent);
}

export type ResetReason = "backlog_too_long" | "cursor_too_old" | "cursor_unknown";

export type ResumeCheck = { reset: ResetReason | null; newest: bigint };

const olderThanLimit = (at: Date, now: Date) => now.getTime() - at.getTime() > RESUME_LIMITS.hours * 3600_000;

/**
 * Whether resuming after `after` is refused (more than RESUME_LIMITS behind), and the newest event
 * of the stream: counted over every committed event, whether or not this instance has read it yet.
 * The cursor's own age counts too (its event's time, or, once purged, being below every retained
 * event): missed events purged since cannot be counted. `0` ("from the start") has no age.
 */
export async function checkResume(client: Db, filter: BacklogFilter, after: bigint, now: Date): Promise<ResumeCheck> {
  const [row] = await client.$queryRaw<
    Array<{ events: number; oldest: Date | null; newest: string | null; cursor_at: Date | null; retained_from: string | null }>
  >`
    SELECT count(*)::int AS events, min(created_at) AS oldest,
           (SELECT max(id)::text FROM generation_event WHERE ${narrowed(filter, after, null)}) AS newest,
           (SELECT created_at FROM generation_event WHERE id = ${after.toString()}::bigint) AS cursor_at,
           (SELECT min(id)::text FROM generation_event) AS retained_from
      FROM (SELECT created_at FROM generation_event WHERE ${narrowed(filter, after, null)} ORDER BY generation_event.id LIMIT ${RESUME_LIMITS.events + 1}) missed`;
  const newest = BigInt(row?.newest ?? after.toString());
  if (!row) return { reset: null, newest };
  if (row.events > RESUME_LIMITS.events) return { reset: "backlog_too_long", newest };
  if (row.oldest && olderThanLimit(row.oldest, now)) return { reset: "cursor_too_old", newest };
  const purgedPast = row.cursor_at === null && row.retained_from !== null && after < BigInt(row.retained_from);
  if (after > 0n && ((row.cursor_at && olderThanLimit(row.cursor_at, now)) || purgedPast)) return { reset: "cursor_too_old", newest };
  return { reset: null, newest };
}

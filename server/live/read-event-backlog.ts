import "server-only";
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db";
import { toStoredEvent, type EventRow, type StoredEvent } from "./live-event";

// The events a resumed stream missed: after the client's Last-Event-ID, up to the hub's watermark
// (everything settled), of the stream's account (and generation or model), oldest first.

export type BacklogFilter = { accountId: string; generationId?: string; modelIdentifier?: string };

export async function readEventBacklog(client: Db, filter: BacklogFilter, after: bigint, upTo: bigint): Promise<StoredEvent[]> {
  const rows = await client.$queryRaw<EventRow[]>`
    SELECT id::text AS id, account_id::text AS account_id, generation_id::text AS generation_id, api_key_id::text AS api_key_id, model_identifier, name, payload
      FROM generation_event
     WHERE account_id = ${filter.accountId}::uuid AND id > ${after.toString()}::bigint AND id <= ${upTo.toString()}::bigint
       ${filter.generationId ? Prisma.sql`AND generation_id = ${filter.generationId}::uuid` : Prisma.empty}
       ${filter.modelIdentifier ? Prisma.sql`AND model_identifier = ${filter.modelIdentifier}` : Prisma.empty}
     ORDER BY id`;
  return rows.map(toStoredEvent);
}

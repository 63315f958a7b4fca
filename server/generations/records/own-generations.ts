import "server-only";
import type { Db } from "../../base/db";
import { ApiError } from "../../base/error-table";
import { toGenerationRecord } from "./public-record";
import { isGuid } from "../../base/guid";
import { generationIdsAtOffset, generationTotal } from "./list-position";
import { generationsAfter } from "./list-after";

// Reading generations, always within one account: another account's generation is ERR1006,
// exactly like one that does not exist (no hint that it exists).

export async function findOwnGeneration(db: Db, accountId: string, generationId: string) {
  if (!isGuid(generationId)) throw new ApiError("ERR1006", "No generation with this id.", { generation_id: generationId });
  const row = await db.generation.findFirst({ where: { id: generationId, accountId } });
  if (!row) throw new ApiError("ERR1006", "No generation with this id.", { generation_id: generationId });
  return row;
}

async function planOf(db: Db, accountId: string) {
  return (await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } })).plan;
}

/** Offsets up to here are read directly; deeper ones start from the counters' position (list-position.ts). */
const DIRECT_OFFSET = 1_000;

/** `startingAfter` (a generation id) pages by cursor (list-after.ts), without it by `offset`. */
export async function listGenerations(db: Db, accountId: string, page: { limit: number; offset?: number; startingAfter?: string }) {
  const offset = page.offset ?? 0;
  const [total, listed, plan] = await Promise.all([
    generationTotal(db, accountId),
    page.startingAfter === undefined
      ? pageAt(db, accountId, { limit: page.limit, offset }).then((rows) => ({ rows, hasMore: null }))
      : generationsAfter(db, { accountId }, { startingAfter: page.startingAfter, limit: page.limit }),
    planOf(db, accountId),
  ]);
  return {
    total,
    generations: listed.rows.map((row) => toGenerationRecord(row, plan)),
    hasMore: listed.hasMore ?? offset + listed.rows.length < total,
  };
}

async function pageAt(db: Db, accountId: string, page: { limit: number; offset: number }) {
  const order = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  if (page.offset <= DIRECT_OFFSET)
    return db.generation.findMany({ where: { accountId }, orderBy: order, take: page.limit, skip: page.offset });
  const ids = await generationIdsAtOffset(db, accountId, page);
  if (ids.length === 0) return [];
  return db.generation.findMany({ where: { accountId, id: { in: ids } }, orderBy: order });
}

import "server-only";
import type { Db } from "../../base/db";
import { ApiError } from "../../base/error-table";
import { toGenerationRecord } from "./public-record";
import { isGuid } from "../../base/guid";
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

/** `startingAfter` (a generation id) pages by cursor (list-after.ts), without it by `offset`. */
export async function listGenerations(db: Db, accountId: string, page: { limit: number; offset?: number; startingAfter?: string }) {
  const offset = page.offset ?? 0;
  const [total, listed, plan] = await Promise.all([
    db.generation.count({ where: { accountId } }),
    page.startingAfter === undefined
      ? db.generation
          .findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit, skip: offset })
          .then((rows) => ({ rows, hasMore: null }))
      : generationsAfter(db, { accountId }, { startingAfter: page.startingAfter, limit: page.limit }),
    planOf(db, accountId),
  ]);
  return {
    total,
    generations: listed.rows.map((row) => toGenerationRecord(row, plan)),
    hasMore: listed.hasMore ?? offset + listed.rows.length < total,
  };
}

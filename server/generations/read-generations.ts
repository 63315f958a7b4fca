import { z } from "zod";
import { db } from "../db";
import { ApiError } from "../http/errors";
import { toGenerationRecord } from "./generation-record";

// GET /v1/content/{id} and /v1/content/list. Another account's generation is ERR1006, exactly
// like one that does not exist (ARCHITECTURE §4).

export async function findOwnGeneration(accountId: string, generationId: string) {
  if (!z.guid().safeParse(generationId).success) throw new ApiError("ERR1006", "No generation with this id.", { generation_id: generationId });
  const row = await db.generation.findFirst({ where: { id: generationId, accountId } });
  if (!row) throw new ApiError("ERR1006", "No generation with this id.", { generation_id: generationId });
  return row;
}

async function planOf(accountId: string) {
  return (await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } })).plan;
}

export async function getGeneration(accountId: string, generationId: string) {
  const row = await findOwnGeneration(accountId, generationId);
  return toGenerationRecord(row, await planOf(accountId));
}

export async function listGenerations(accountId: string, page: { limit: number; offset: number }) {
  const [total, rows, plan] = await Promise.all([
    db.generation.count({ where: { accountId } }),
    db.generation.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit, skip: page.offset }),
    planOf(accountId),
  ]);
  return { total, generations: rows.map((row) => toGenerationRecord(row, plan)) };
}

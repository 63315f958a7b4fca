import "server-only";
import { z } from "zod";
import type { Db } from "../../base/db";
import type { Prisma } from "../../base/generated/prisma/client";
import { afterPosition, cursorPage, decodePositionCursor } from "../../base/pagination/position-cursor";
import { toGenerationRecord } from "./public-record";

// The dashboard's generation browser: one account's generations, newest first, filtered by
// status, model and creation date (UTC days, both ends included), paged by cursor (the position of
// the last generation shown, base/pagination), so rows that arrive meanwhile never shift a page and a
// page deep in the history is one index range scan from that position.

export const generationStatuses = ["pending", "processing", "succeeded", "failed", "canceled"] as const;

const day = z.iso.date();

export const generationFilters = z
  .object({
    status: z.enum(generationStatuses).optional(),
    model: z.string().min(1).max(200).optional(),
    createdFrom: day.optional(),
    createdTo: day.optional(),
    limit: z.number().int().min(1).max(100).default(24),
    /** The previous page's `nextCursor`. */
    cursor: z.string().max(200).nullish(),
  })
  .refine((filters) => !filters.createdFrom || !filters.createdTo || filters.createdFrom <= filters.createdTo, {
    message: "must not be after createdTo",
    path: ["createdFrom"],
  });

export type GenerationFilters = z.input<typeof generationFilters>;

const DAY_MS = 86_400_000;

export async function browseGenerations(db: Db, accountId: string, input: GenerationFilters) {
  const filters = generationFilters.parse(input);
  const createdAt: Prisma.DateTimeFilter = {};
  if (filters.createdFrom) createdAt.gte = new Date(`${filters.createdFrom}T00:00:00Z`);
  if (filters.createdTo) createdAt.lt = new Date(new Date(`${filters.createdTo}T00:00:00Z`).getTime() + DAY_MS);
  const after = filters.cursor ? decodePositionCursor(filters.cursor) : null;
  const where: Prisma.GenerationWhereInput = {
    accountId,
    status: filters.status,
    modelIdentifier: filters.model,
    AND: [{ createdAt }, afterPosition(after)],
  };

  const [rows, account] = await Promise.all([
    db.generation.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: filters.limit + 1 }),
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } }),
  ]);
  const { page, next_cursor } = cursorPage(rows, filters.limit);
  return {
    generations: page.map((row) => ({ ...toGenerationRecord(row, account.plan), media_kind: row.mediaKind })),
    nextCursor: next_cursor,
  };
}

/** The models this account has used, for the model filter. */
export async function listUsedModels(db: Db, accountId: string): Promise<string[]> {
  const rows = await db.generation.groupBy({ by: ["modelIdentifier"], where: { accountId }, orderBy: { modelIdentifier: "asc" } });
  return rows.map((row) => row.modelIdentifier);
}

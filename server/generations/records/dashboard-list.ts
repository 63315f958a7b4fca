import "server-only";
import { z } from "zod";
import type { Db } from "../../base/db";
import type { Prisma } from "../../base/generated/prisma/client";
import { findOwnGeneration } from "./own-generations";
import { toGenerationRecord } from "./public-record";

// The dashboard's generation browser: one account's generations, newest first, filtered by
// status, model and creation date (UTC days, both ends included), paged by cursor (the last
// generation id shown), so rows that arrive meanwhile never shift a page.

export const generationStatuses = ["pending", "processing", "succeeded", "failed", "canceled"] as const;

const day = z.iso.date();

export const generationFilters = z
  .object({
    status: z.enum(generationStatuses).optional(),
    model: z.string().min(1).max(200).optional(),
    createdFrom: day.optional(),
    createdTo: day.optional(),
    limit: z.number().int().min(1).max(100).default(24),
    /** The id of the last generation of the previous page. */
    cursor: z.string().max(100).nullish(),
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
  const where: Prisma.GenerationWhereInput = { accountId, status: filters.status, modelIdentifier: filters.model, createdAt };

  if (filters.cursor) {
    // Another account's id is ERR1006 here too.
    const after = await findOwnGeneration(db, accountId, filters.cursor);
    where.OR = [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }];
  }

  const [rows, account] = await Promise.all([
    db.generation.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: filters.limit + 1 }),
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } }),
  ]);
  const page = rows.slice(0, filters.limit);
  return {
    generations: page.map((row) => ({ ...toGenerationRecord(row, account.plan), media_kind: row.mediaKind })),
    nextCursor: rows.length > filters.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** The models this account has used, for the model filter. */
export async function listUsedModels(db: Db, accountId: string): Promise<string[]> {
  const rows = await db.generation.groupBy({ by: ["modelIdentifier"], where: { accountId }, orderBy: { modelIdentifier: "asc" } });
  return rows.map((row) => row.modelIdentifier);
}

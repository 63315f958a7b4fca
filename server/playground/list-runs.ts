import "server-only";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { isGuid } from "../base/guid";

// The user's recent runs from the dashboard, newest first, each with the request it made (reopened
// into the form as it was), and the columns of one comparison in their order.

export const HISTORY_LIMIT = 20;

const runSelect = {
  generationId: true,
  comparisonId: true,
  position: true,
  createdAt: true,
  generation: {
    select: { modelIdentifier: true, mediaKind: true, status: true, prompt: true, params: true, providerUsed: true, removedAt: true },
  },
} as const;

type RunRow = {
  generationId: string;
  comparisonId: string | null;
  position: number;
  createdAt: Date;
  generation: {
    modelIdentifier: string;
    mediaKind: string;
    status: string;
    prompt: string | null;
    params: unknown;
    providerUsed: string | null;
    removedAt: Date | null;
  };
};

function toRunSummary(row: RunRow) {
  return {
    generation_id: row.generationId,
    comparison_id: row.comparisonId,
    position: row.position,
    created_at: row.createdAt.toISOString(),
    model_identifier: row.generation.modelIdentifier,
    media_kind: row.generation.mediaKind,
    status: row.generation.status,
    prompt: row.generation.prompt,
    provider_used: row.generation.providerUsed,
    removed: row.generation.removedAt !== null,
    /** The validated body the generation was created with. */
    request: (row.generation.params ?? {}) as Record<string, unknown>,
  };
}

export type RunSummary = ReturnType<typeof toRunSummary>;

export async function listRecentRuns(db: Db, input: { accountId: string; userId: string; comparisons?: boolean }): Promise<RunSummary[]> {
  const rows = await db.playgroundRun.findMany({
    where: {
      accountId: input.accountId,
      userId: input.userId,
      ...(input.comparisons === undefined ? {} : input.comparisons ? { comparisonId: { not: null }, position: 0 } : { comparisonId: null }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: HISTORY_LIMIT,
    select: runSelect,
  });
  return rows.map(toRunSummary);
}

/** A comparison's columns, in order; ERR1006 for one that is not this account's. */
export async function listComparisonRuns(db: Db, input: { accountId: string; comparisonId: string }): Promise<RunSummary[]> {
  const rows = isGuid(input.comparisonId)
    ? await db.playgroundRun.findMany({
        where: { accountId: input.accountId, comparisonId: input.comparisonId },
        orderBy: { position: "asc" },
        select: runSelect,
      })
    : [];
  if (rows.length === 0) throw new ApiError("ERR1006", "Comparison not found.", { comparison_id: input.comparisonId });
  return rows.map(toRunSummary);
}

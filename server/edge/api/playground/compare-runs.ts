import "server-only";
import { createHash } from "node:crypto";
import type { AccountMembership } from "../../../accounts/find-membership";
import { db } from "../../../base/db";
import { ApiError, toApiError } from "../../../base/error-table";
import { log } from "../../../base/log";
import { listComparisonRuns } from "../../../playground/list-runs";
import { createRun } from "./create-run";
import { parseRunBody, servedModel } from "./parse-run-body";
import { viewRun, type RunView } from "./run-view";

// Compare: up to four columns, each its own generation through createRun (a model, or one model
// pinned to a provider order), one comparison id tying them together. Every column's body is
// checked before the first one starts; a column the create refuses (balance, limit, cap) says why
// and the others still run.

export const MAX_COLUMNS = 4;

export type CompareColumn = { identifier: string; body: Record<string, unknown> };

/** The same Idempotency-Key names the same comparison: a retried Run starts nothing twice. */
function comparisonIdOf(accountId: string, idempotencyKey: string): string {
  const hex = createHash("sha256").update(`${accountId}:${idempotencyKey}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function startComparison(
  membership: AccountMembership,
  userId: string,
  input: { columns: CompareColumn[]; idempotencyKey: string },
) {
  const parsed = input.columns.map((column) => {
    const model = servedModel(column.identifier);
    return { model, fields: parseRunBody(model, column.body), rawBody: column.body };
  });
  const comparisonId = comparisonIdOf(membership.accountId, input.idempotencyKey);
  const columns = [];
  for (const [position, column] of parsed.entries()) {
    try {
      const created = await createRun({
        accountId: membership.accountId,
        userId,
        ...column,
        idempotencyKey: `${input.idempotencyKey}:${position}`,
        comparison: { id: comparisonId, position },
      });
      columns.push({ position, generation_id: created.generation_id, error: null });
    } catch (error) {
      if (!(error instanceof ApiError))
        log.error("a comparison column failed to start", { comparison_id: comparisonId, position, error: String(error) });
      const apiError = toApiError(error);
      columns.push({ position, generation_id: null, error: { code: apiError.code, message: apiError.message } });
    }
  }
  return { comparison_id: comparisonId, columns };
}

export async function viewComparison(accountId: string, comparisonId: string) {
  const runs = await listComparisonRuns(db, { accountId, comparisonId });
  const views = await Promise.all(runs.map((run) => viewRun(accountId, run.generation_id)));
  const columns = runs.map((run, index) => ({ ...run, view: views[index] as RunView }));
  const done = columns.filter((column) => column.view.record.generation_status === "succeeded");
  const best = (value: (column: (typeof columns)[number]) => number | null) =>
    bestOf(done.flatMap((column) => (column.generation_id === null ? [] : [{ id: column.generation_id, score: value(column) }])));
  return {
    comparison_id: comparisonId,
    columns,
    finished: columns.every((column) => column.view.finished),
    summary: { fastest: best((column) => column.view.total_time_ms), cheapest: best((column) => column.view.cost_charged) },
  };
}

/** The ids at the least score (a tie gives them all; scores all null, or none: none). */
export function bestOf(entries: Array<{ id: string; score: number | null }>): string[] {
  const scored = entries.filter((entry): entry is { id: string; score: number } => entry.score !== null);
  const least = Math.min(...scored.map((entry) => entry.score));
  return scored.filter((entry) => entry.score === least).map((entry) => entry.id);
}

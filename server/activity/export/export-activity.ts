import "server-only";
import type { OneAccount } from "../../base/account-scope";
import { csvRecord } from "../../base/csv";
import type { Db } from "../../base/db";
import { ApiError } from "../../base/error-table";
import type { PlanName } from "../../plans/plan-limits";
import { exportRange, type ExportRangeInput } from "../../retention/export-range";
import { activityExportEvents, type ActivityExportEvent } from "./activity-export-events";

// The activity export: the account's audit feed in a range (by default all the plan still keeps),
// oldest first, as CSV (a header row) or JSON Lines (one object a line). The range is checked
// before anything is produced; the lines are then pulled one event at a time.

export const activityExportFormats = ["csv", "jsonl"] as const;
export type ActivityExportFormat = (typeof activityExportFormats)[number];

export const activityColumns = ["event_id", "timestamp", "actor", "actor_name", "category", "action", "description"] as const;

export type ActivityExportInput = ExportRangeInput & { format: ActivityExportFormat; now?: Date };

export type ActivityExport = {
  filename: string;
  contentType: "text/csv; charset=utf-8" | "application/x-ndjson; charset=utf-8";
  lines: AsyncIterable<string>;
};

function fields(event: ActivityExportEvent) {
  return {
    event_id: event.id,
    timestamp: event.createdAt.toISOString(),
    actor: event.actor,
    actor_name: event.actorName,
    category: event.category,
    action: event.action,
    description: event.description,
  };
}

export async function exportActivity(database: Db, scope: OneAccount, input: ActivityExportInput): Promise<ActivityExport> {
  const account = await database.account.findUnique({ where: { id: scope.accountId }, select: { plan: true, deletedAt: true } });
  if (!account || account.deletedAt) throw new ApiError("ERR1006", "The account was not found.", { account_id: scope.accountId });
  const range = exportRange(input, { plan: account.plan as PlanName, data: "activity", now: input.now, fromRequired: false });
  const events = activityExportEvents(database, scope, { start: range.start, end: range.end });
  const csv = input.format === "csv";
  async function* lines() {
    if (csv) yield csvRecord(activityColumns);
    for await (const event of events) {
      const row = fields(event);
      yield csv ? csvRecord(activityColumns.map((column) => row[column])) : `${JSON.stringify(row)}\n`;
    }
  }
  return {
    filename: `darkroom-activity-${range.from}-to-${range.to}.${csv ? "csv" : "jsonl"}`,
    contentType: csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    lines: lines(),
  };
}

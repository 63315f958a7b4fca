import "server-only";
import type { OneAccount } from "../../base/account-scope";
import type { Db } from "../../base/db";
import type { RegionName } from "../../base/env";
import { ApiError } from "../../base/error-table";
import { csvRecord } from "../../base/csv";
import type { PlanName } from "../../plans/plan-limits";
import { exportRange, type ExportRangeInput } from "../../retention/export-range";
import { currentKeyNames } from "./key-names";
import {
  focusColumns,
  focusRow,
  usageCsvColumns,
  usageCsvRow,
  type UsageExportContext,
  type UsageExportFormat,
} from "./usage-export-columns";
import { usageExportDays, type UsageExportDay, type UsageExportDaysInput } from "./usage-export-days";

// The usage export of one account in one region: the range is checked (and the account found)
// before anything is produced, so a refusal is still an envelope; then the rows are lines of text
// pulled one at a time from the day-grain source. Nothing holds more than a day of it.

export type UsageExportInput = ExportRangeInput & { format: UsageExportFormat; region: RegionName; now?: Date };

export type UsageExport = {
  filename: string;
  contentType: "text/csv; charset=utf-8";
  /** The header, then one line per row: pull it (textStream) to send it. */
  lines: AsyncIterable<string>;
};

/** The day-grain rows behind an export (usageExportDays; the tests count its pages through this). */
export type UsageExportSource = (database: Db, scope: OneAccount, input: UsageExportDaysInput) => AsyncIterable<UsageExportDay>;

export async function exportUsage(
  database: Db,
  scope: OneAccount,
  input: UsageExportInput,
  source: UsageExportSource = usageExportDays,
): Promise<UsageExport> {
  const account = await database.account.findUnique({
    where: { id: scope.accountId },
    select: { name: true, plan: true, deletedAt: true },
  });
  if (!account || account.deletedAt) throw new ApiError("ERR1006", "The account was not found.", { account_id: scope.accountId });
  const range = exportRange(input, { plan: account.plan as PlanName, data: "generations", now: input.now, fromRequired: true });
  const keyNames = await currentKeyNames(database, scope);
  const context: UsageExportContext = {
    accountId: scope.accountId,
    accountName: account.name,
    region: input.region,
    keyName: (id) => (id === null ? "" : (keyNames.get(id) ?? "")),
  };
  const focus = input.format === "focus";
  const rows = source(database, scope, { region: input.region, start: range.start, end: range.end });
  async function* lines() {
    yield csvRecord(focus ? focusColumns : usageCsvColumns);
    for await (const row of rows) yield focus ? focusRow(row, context) : usageCsvRow(row, context);
  }
  return {
    filename: `darkroom-usage-${focus ? "focus-" : ""}${input.region}-${range.from}-to-${range.to}.csv`,
    contentType: "text/csv; charset=utf-8",
    lines: lines(),
  };
}

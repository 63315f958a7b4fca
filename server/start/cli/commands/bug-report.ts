import { accountScope, OPERATOR } from "../../../base/account-scope";
import { listBugReports, MAX_BUG_REPORT_LIST_LIMIT } from "../../../bug-reports/list-bug-reports";
import { invalidRequest } from "../../../base/error-table";
import { uuidFlag, type Command, type Flags } from "./command";

// Problems reported from the dashboard ("Report a problem"), for operators: newest first.

const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function sinceFlag(flags: Flags): Date | undefined {
  const value = flags.since;
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!isoDateTime.test(value) || Number.isNaN(date.getTime()))
    throw invalidRequest("--since must be an ISO 8601 date-time.", [{ field: "since", message: "must be an ISO 8601 date-time" }]);
  return date;
}

function limitFlag(flags: Flags): number {
  const value = flags.limit;
  if (value === undefined) return 50;
  const limit = Number(value);
  if (!/^\d{1,4}$/.test(value) || limit < 1 || limit > MAX_BUG_REPORT_LIST_LIMIT) {
    throw invalidRequest(`--limit must be a whole number from 1 to ${MAX_BUG_REPORT_LIST_LIMIT}.`, [
      { field: "limit", message: `must be an integer from 1 to ${MAX_BUG_REPORT_LIST_LIMIT}` },
    ]);
  }
  return limit;
}

export const bugReportCommands: Record<string, Command> = {
  "bug:list": {
    usage: `bug:list [--account A] [--since ISO] [--limit N] (newest first; N from 1 to ${MAX_BUG_REPORT_LIST_LIMIT}, default 50)`,
    required: [],
    optional: ["account", "since", "limit"],
    transaction: false,
    prepare(flags) {
      const scope = flags.account === undefined ? OPERATOR : accountScope(uuidFlag(flags, "account"));
      const filters = { since: sinceFlag(flags), limit: limitFlag(flags) };
      return async (db) => ({ bug_reports: await listBugReports(db, scope, filters) });
    },
  },
};

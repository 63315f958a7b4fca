import { accountScope } from "../../../base/account-scope";
import { env, regions } from "../../../base/env";
import { activityExportFormats, exportActivity } from "../../../activity/export/export-activity";
import { usageExportFormats } from "../../../usage/export/usage-export-columns";
import { exportUsage } from "../../../usage/export/export-usage";
import { dayFlag, oneOf, uuidFlag, type Command, type Flags } from "./command";

// The exports as files: the same functions as GET /v1/usage/export and the dashboard's downloads,
// written to stdout (or --out FILE) as they are read. The region defaults to this deployment's.

/** `--account` and the `--from` / `--to` days, checked for shape (the range rules are the export's). */
function accountAndRange(flags: Flags) {
  return { scope: accountScope(uuidFlag(flags, "account")), range: { from: dayFlag(flags, "from"), to: dayFlag(flags, "to") } };
}

export const exportCommands: Record<string, Command> = {
  "usage:export": {
    usage:
      "usage:export --account A --from YYYY-MM-DD [--to YYYY-MM-DD] [--format csv|focus] [--region us|eu|jp] [--out FILE] (CSV on stdout, or into FILE)",
    required: ["account", "from"],
    optional: ["to", "format", "region", "out"],
    database: "file",
    prepare(flags) {
      const { scope, range } = accountAndRange(flags);
      const format = oneOf(flags, "format", usageExportFormats) ?? "csv";
      const region = oneOf(flags, "region", regions);
      return async (db) => exportUsage(db, scope, { ...range, format, region: region ?? env().REGION });
    },
  },
  "activity:export": {
    usage:
      "activity:export --account A [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format csv|jsonl] [--out FILE] (oldest first; from: all the plan keeps)",
    required: ["account"],
    optional: ["from", "to", "format", "out"],
    database: "file",
    prepare(flags) {
      const { scope, range } = accountAndRange(flags);
      const format = oneOf(flags, "format", activityExportFormats) ?? "csv";
      return async (db) => exportActivity(db, scope, { ...range, format });
    },
  },
};

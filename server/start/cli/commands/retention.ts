import { accountScope, OPERATOR } from "../../../base/account-scope";
import { runRetention } from "../../../retention/run-retention";
import { dateFlag, uuidFlag, type Command } from "./command";

// Retention by plan on demand (the hourly `retention` cron runs the same pass). `--now` runs it as of
// another moment (operators checking what a pass would have removed, tests); `--account` limits it
// to one account. Deletes run in short batches of their own, never in one long transaction.

export const retentionCommands: Record<string, Command> = {
  "retention:run": {
    usage: "retention:run [--now ISO] [--account A] (deletes data older than each account's plan windows; prints the counts removed)",
    required: [],
    optional: ["now", "account"],
    transaction: false,
    prepare(flags) {
      const now = dateFlag(flags, "now") ?? new Date();
      const scope = flags.account === undefined ? OPERATOR : accountScope(uuidFlag(flags, "account"));
      return async (db) => runRetention(db, scope, { now });
    },
  },
};

import { OPERATOR } from "../../../base/account-scope";
import { invalidRequest } from "../../../base/error-table";
import { parseSpendLimit, parseSpendPeriod } from "../../../spend/spend-limit-input";
import { setAccountSpendLimit } from "../../../spend/set-account-spend-limit";
import { setKeySpendLimit } from "../../../spend/set-key-spend-limit";
import { ACTOR, dateFlag, uuidFlag, type Command, type Flags } from "./command";

// Spend limits: a key's budget (shared with its rotation lineage) and the account's monthly limit.
// `--now` reads the spend and the reset as of another moment (operators, tests); the limit itself
// is set now.

/** --spend-limit X|none → millicredits or null; --spend-period checked; the period needs a limit. */
export function spendFlags(flags: Flags, { limitRequired }: { limitRequired: boolean }) {
  const raw = flags["spend-limit"];
  if (raw === undefined) {
    if (flags["spend-period"] !== undefined)
      throw invalidRequest("--spend-period needs --spend-limit.", [{ field: "spend-limit", message: "required with --spend-period" }]);
    if (limitRequired) throw invalidRequest("--spend-limit is required.", [{ field: "spend-limit", message: "required" }]);
    return { limitMillis: undefined, period: undefined };
  }
  const limitMillis = parseSpendLimit(raw, "spend-limit");
  const period = flags["spend-period"] === undefined ? undefined : parseSpendPeriod(flags["spend-period"], "spend-period");
  if (limitMillis === null && period !== undefined)
    throw invalidRequest("--spend-period cannot go with --spend-limit none.", [{ field: "spend-period", message: "not with none" }]);
  return { limitMillis, period };
}

export const spendCommands: Record<string, Command> = {
  "key:limit": {
    usage:
      "key:limit --key-id K --spend-limit X|none [--spend-period day|week|month|total] [--now ISO] (X: credits, up to 3 decimals; the rotation lineage shares it)",
    required: ["key-id", "spend-limit"],
    optional: ["spend-period", "now"],
    prepare(flags) {
      const keyId = uuidFlag(flags, "key-id");
      const { limitMillis, period } = spendFlags(flags, { limitRequired: true });
      const now = dateFlag(flags, "now");
      return async (tx) => setKeySpendLimit(tx, OPERATOR, { keyId, limitMillis: limitMillis ?? null, period, actor: ACTOR, now });
    },
  },
  "account:limit": {
    usage: "account:limit --account A --monthly-spend-limit X|none [--now ISO] (X: credits per calendar month, UTC, over all keys)",
    required: ["account", "monthly-spend-limit"],
    optional: ["now"],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const limitMillis = parseSpendLimit(flags["monthly-spend-limit"] ?? "", "monthly-spend-limit");
      const now = dateFlag(flags, "now");
      return async (tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis, actor: ACTOR, now });
    },
  },
};

import { requestHostnameCheck } from "../../../hostnames/check-hostname";
import { removeCustomHostname } from "../../../hostnames/remove-hostname";
import { setCustomHostname } from "../../../hostnames/set-hostname";
import { validateHostname } from "../../../hostnames/validate-hostname";
import { ACTOR, uuidFlag, type Command } from "./command";

// An account's custom hostname (Enterprise) from the CLI. Each command prints {hostname, status};
// the verification itself runs in the server (custom-hostname-verify), so `hostname:check`
// answers `pending` and the status moves on there.

export const hostnameCommands: Record<string, Command> = {
  "hostname:set": {
    usage: "hostname:set --account A --hostname H",
    required: ["account", "hostname"],
    optional: [],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const hostname = validateHostname(flags.hostname ?? "");
      return async (tx) => {
        const record = await setCustomHostname(tx, { accountId, hostname, actor: ACTOR });
        return { hostname: record.hostname, status: record.status };
      };
    },
  },
  "hostname:check": {
    usage: "hostname:check --account A",
    required: ["account"],
    optional: [],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (tx) => {
        const record = await requestHostnameCheck(tx, { accountId, actor: ACTOR });
        return { hostname: record.hostname, status: record.status };
      };
    },
  },
  "hostname:remove": {
    usage: "hostname:remove --account A",
    required: ["account"],
    optional: [],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (tx) => {
        const record = await removeCustomHostname(tx, { accountId, actor: ACTOR });
        return { hostname: record.hostname, status: record.status };
      };
    },
  },
};

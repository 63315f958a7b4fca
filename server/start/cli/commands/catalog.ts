import { listProviders, providerIds } from "../../../catalog";
import { describeCatalog } from "../../../catalog/describe-catalog";
import { checkCatalog } from "../../../providers/check-catalog";
import { configuredProviders } from "../../../providers/configured-providers";
import { accountScope, OPERATOR } from "../../../base/account-scope";
import { regions } from "../../../base/env";
import { invalidRequest } from "../../../base/error-table";
import { modelMargins } from "../../../usage/model-margin";
import { oneOf, uuidFlag, type Command, type Flags } from "./command";

// The operator's catalog: what this deployment offers (catalog:list), and whether the data holds
// and every configured provider takes our credential and knows the catalog's model ids
// (catalog:check). Neither needs the database.

const remoteProviderIds = listProviders()
  .filter((provider) => provider.credentialEnv !== null)
  .map((provider) => provider.id);

export const catalogCommands: Record<string, Command> = {
  "catalog:list": {
    usage: "catalog:list [--type image|video] [--provider <id>]",
    required: [],
    optional: ["type", "provider"],
    database: false,
    prepare(flags) {
      const filter = { type: oneOf(flags, "type", ["image", "video"] as const), provider: oneOf(flags, "provider", providerIds) };
      return async () => describeCatalog(configuredProviders(), filter);
    },
  },
  "catalog:check": {
    usage: "catalog:check [--provider <id>] (exit 1 when it finds a problem)",
    required: [],
    optional: ["provider"],
    database: false,
    prepare(flags) {
      const provider = oneOf(flags, "provider", remoteProviderIds);
      return async () => checkCatalog({ provider });
    },
    succeeded: (result) => result.ok === true,
  },
  "catalog:margin": {
    usage: "catalog:margin [--days 1..365 (default 30)] [--region us|eu|jp] [--account UUID]",
    required: [],
    optional: ["days", "region", "account"],
    prepare(flags) {
      const days = daysFlag(flags);
      const region = oneOf(flags, "region", regions);
      const scope = flags.account === undefined ? OPERATOR : accountScope(uuidFlag(flags, "account"));
      return async (tx) => modelMargins(tx, scope, { days, region });
    },
  },
};

function daysFlag(flags: Flags): number {
  const text = flags.days ?? "30";
  const days = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(days >= 1 && days <= 365))
    throw invalidRequest("--days must be an integer from 1 to 365.", [{ field: "days", message: "must be an integer from 1 to 365" }]);
  return days;
}

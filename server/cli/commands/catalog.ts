import { listProviders, providerIds } from "../../catalog";
import { describeCatalog } from "../../catalog/describe-catalog";
import { checkCatalog } from "../../providers/check-catalog";
import { configuredProviders } from "../../providers/configured-providers";
import { oneOf, type Command } from "./command";

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
};

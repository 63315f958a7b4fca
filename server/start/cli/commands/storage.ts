import { inTransaction } from "../../../base/transaction";
import { CLI_FIELDS, parseDestination, type DestinationRequest } from "../../../storage/destinations/parse-destination";
import {
  prepareDestination,
  removeDestination,
  retestDestination,
  saveDestination,
  showDestination,
} from "../../../storage/destinations/store";
import { env } from "../../../base/env";
import { ACTOR, existingAccount, uuidFlag, type Command, type Flags } from "./command";

// The account's own storage destination from the CLI (docs/storage.md): `set` checks the flags
// before booting, then writes, reads back and deletes a test object before it saves anything; the
// secret is never printed again.

function requestOf(flags: Flags): DestinationRequest {
  return {
    endpoint: flags.endpoint ?? "",
    region: flags.region ?? "",
    bucket: flags.bucket ?? "",
    prefix: flags.prefix,
    accessKeyId: flags["access-key-id"] ?? "",
    secretAccessKey: flags["secret-access-key"] ?? "",
    pathStyle: flags["path-style"] === "true",
    linkTtl: flags["link-ttl"],
    publicBaseUrl: flags["public-base-url"],
    fallback: flags.fallback,
  };
}

export const storageCommands: Record<string, Command> = {
  "storage:set": {
    usage:
      "storage:set --account A --endpoint URL --region R --bucket B [--prefix P] --access-key-id K --secret-access-key S [--path-style] [--link-ttl 1h | --public-base-url U] [--fallback fail|darkroom]",
    required: ["account", "endpoint", "region", "bucket", "access-key-id", "secret-access-key"],
    optional: ["prefix", "link-ttl", "public-base-url", "fallback"],
    switches: ["path-style"],
    transaction: false,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const request = requestOf(flags);
      parseDestination(request, CLI_FIELDS, { allowLoopback: env().STORAGE_ALLOW_LOOPBACK });
      return async (db) => {
        const scope = await existingAccount(db, accountId);
        const destination = await prepareDestination(request, CLI_FIELDS);
        return { account_id: accountId, storage: await inTransaction((tx) => saveDestination(tx, scope, destination, ACTOR)) };
      };
    },
  },
  "storage:test": {
    usage: "storage:test --account A (writes, reads back and deletes a test object in the saved destination)",
    required: ["account"],
    optional: [],
    transaction: false,
    succeeded: (result) => (result.test as { ok?: boolean } | undefined)?.ok === true,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (db) => ({ account_id: accountId, test: await retestDestination(db, await existingAccount(db, accountId)) });
    },
  },
  "storage:show": {
    usage: "storage:show --account A",
    required: ["account"],
    optional: [],
    transaction: false,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (db) => ({ account_id: accountId, storage: await showDestination(db, await existingAccount(db, accountId)) });
    },
  },
  "storage:remove": {
    usage: "storage:remove --account A (outputs go to Darkroom's storage again; files in the bucket stay)",
    required: ["account"],
    optional: [],
    transaction: false,
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      return async (db) => {
        const scope = await existingAccount(db, accountId);
        return { account_id: accountId, ...(await inTransaction((tx) => removeDestination(tx, scope, ACTOR))) };
      };
    },
  },
};

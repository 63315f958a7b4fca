import { randomUUID } from "node:crypto";
import { z } from "zod";
import { OPERATOR } from "../accounts/account-scope";
import { changePlan } from "../accounts/change-plan";
import { createAccount, plans } from "../accounts/create-account";
import { formatCredits, parseCreditsToMillis } from "../catalog/money";
import { addCredits } from "../credits/add-credits";
import { env, regions, setRuntimeEnv } from "../env";
import { ApiError, invalidRequest } from "../http/errors";
import { createApiKey } from "../keys/create-key";
import { deleteApiKey } from "../keys/delete-key";
import { parseIpAllowlist } from "../keys/ip-allowlist";
import { revokeApiKey } from "../keys/revoke-key";
import { rotateApiKey } from "../keys/rotate-key";
import { resolveScopes, scopePresetNames } from "../keys/scopes";
import type { DatabaseHandle } from "../runtime/database";
import { log } from "../runtime/log";
import { ACTOR, list, oneOf, uuidFlag, type Command, type Flags } from "./commands/command";
import { webhookCommands } from "./commands/webhook";

// The operator CLI: `npm run cli -- <command> [--flag value]`. Prints exactly one JSON object on
// stdout (logs go to stderr). Exit 0 on success, 2 on bad input (ERR1001, ERR1006), 1 otherwise.
// Flags are checked before the database starts; every mutation is one transaction, actor system.

function positiveCredits(flags: Flags, name: string): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const millis = parseCreditsToMillis(value, name);
  if (millis <= 0) throw invalidRequest(`--${name} must be greater than zero.`, [{ field: name, message: "must be greater than zero" }]);
  return millis;
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function dateFlag(flags: Flags, name: string): Date | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!isoDateTime.test(value) || Number.isNaN(date.getTime())) {
    throw invalidRequest(`--${name} must be an ISO 8601 date-time.`, [{ field: name, message: "must be an ISO 8601 date-time" }]);
  }
  return date;
}

const commands: Record<string, Command> = {
  "account:create": {
    usage: "account:create --email E [--name N] [--plan free|starter|pro|scale|enterprise] [--region us|eu|jp] [--credits X]",
    required: ["email"],
    optional: ["name", "plan", "region", "credits"],
    prepare(flags) {
      const input = {
        email: flags.email ?? "",
        name: flags.name,
        plan: oneOf(flags, "plan", plans),
        region: oneOf(flags, "region", regions),
        credits: positiveCredits(flags, "credits"),
        actor: ACTOR,
      };
      if (!z.email().safeParse(input.email.trim().toLowerCase()).success) throw invalidRequest("--email must be an e-mail address.", [{ field: "email", message: "must be an e-mail address" }]);
      return async (tx) => createAccount(tx, input);
    },
  },
  "key:create": {
    usage: "key:create --account A [--name N] [--preset full|generate|read|monitor] [--scopes s1,s2] [--region R] [--expires-at ISO] [--allow-ip ip-or-cidr,...]",
    required: ["account"],
    optional: ["name", "preset", "scopes", "region", "expires-at", "allow-ip"],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const preset = oneOf(flags, "preset", scopePresetNames);
      const scopes = list(flags.scopes);
      resolveScopes({ preset, scopes });
      const input = {
        accountId,
        name: flags.name ?? "Default key",
        preset,
        scopes,
        region: oneOf(flags, "region", regions),
        expiresAt: dateFlag(flags, "expires-at"),
        ipAllowlist: flags["allow-ip"] === undefined ? null : parseIpAllowlist(list(flags["allow-ip"]) ?? [], "allow-ip"),
        actor: ACTOR,
      };
      return async (tx) => {
        const created = await createApiKey(tx, input);
        return { apikey_id: created.apikey_id, key: created.key, apikey_prefix: created.apikey_prefix };
      };
    },
  },
  "key:rotate": {
    usage: "key:rotate --key-id K [--grace-hours H]",
    required: ["key-id"],
    optional: ["grace-hours"],
    prepare(flags) {
      const keyId = uuidFlag(flags, "key-id");
      const hours = flags["grace-hours"];
      if (hours !== undefined && !/^\d{1,3}$/.test(hours)) throw invalidRequest("--grace-hours must be a whole number of hours from 1 to 168.", [{ field: "grace-hours", message: "must be an integer from 1 to 168" }]);
      return async (tx) => {
        const rotated = await rotateApiKey(tx, OPERATOR, { keyId, graceHours: hours === undefined ? undefined : Number(hours), actor: ACTOR });
        return { apikey_id: rotated.apikey_id, key: rotated.key, old_key_valid_until: rotated.old_key_valid_until };
      };
    },
  },
  "key:revoke": {
    usage: "key:revoke --key-id K",
    required: ["key-id"],
    optional: [],
    prepare(flags) {
      const keyId = uuidFlag(flags, "key-id");
      return async (tx) => {
        const revoked = await revokeApiKey(tx, OPERATOR, { keyId, actor: ACTOR });
        return { apikey_id: revoked.apikey_id, status: revoked.status };
      };
    },
  },
  "key:delete": {
    usage: "key:delete --key-id K",
    required: ["key-id"],
    optional: [],
    prepare(flags) {
      const keyId = uuidFlag(flags, "key-id");
      return async (tx) => deleteApiKey(tx, OPERATOR, { keyId, actor: ACTOR });
    },
  },
  "credits:add": {
    usage: "credits:add --account A --amount X [--description D]",
    required: ["account", "amount"],
    optional: ["description"],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const amountMillis = positiveCredits(flags, "amount") ?? 0;
      const description = flags.description?.trim() || "Operator credit grant";
      return async (tx) => {
        const result = await addCredits(tx, { accountId, amountMillis, sourceKey: `operator:${randomUUID()}`, description, actor: ACTOR });
        return { account_id: accountId, balance: formatCredits(result.balanceMillis) };
      };
    },
  },
  "account:plan": {
    usage: "account:plan --account A --plan P",
    required: ["account", "plan"],
    optional: [],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const plan = oneOf(flags, "plan", plans) ?? "";
      return async (tx) => {
        const changed = await changePlan(tx, { accountId, plan, actor: ACTOR });
        return { account_id: changed.account_id, plan: changed.plan };
      };
    },
  },
  ...webhookCommands,
};

function usageError(message: string): ApiError {
  return new ApiError("ERR1001", message, { usage: Object.values(commands).map((command) => `npm run cli -- ${command.usage}`) });
}

/** `<command> --flag value --flag=value ...` → the command and its flags, all checked. */
function parseArgs(argv: string[]): { name: string; command: Command; flags: Flags } {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!name || !command) throw usageError(name ? `Unknown command: ${name}.` : "No command given.");
  const known = [...command.required, ...command.optional];
  const flags: Flags = {};
  for (let index = 0; index < rest.length; index++) {
    const token = rest[index] ?? "";
    if (!token.startsWith("--")) throw usageError(`Unexpected argument: ${token}.`);
    const equals = token.indexOf("=");
    const flag = token.slice(2, equals === -1 ? undefined : equals);
    let value: string | undefined;
    if (equals !== -1) value = token.slice(equals + 1);
    else if (rest[index + 1] !== undefined && !rest[index + 1]!.startsWith("--")) value = rest[++index];
    if (!known.includes(flag)) throw usageError(`Unknown flag for ${name}: --${flag}.`);
    if (value === undefined || value.trim() === "") throw invalidRequest(`--${flag} needs a value.`, [{ field: flag, message: "needs a value" }]);
    if (flag in flags) throw invalidRequest(`--${flag} is given twice.`, [{ field: flag, message: "given twice" }]);
    flags[flag] = value;
  }
  for (const flag of command.required) {
    if (!(flag in flags)) throw invalidRequest(`${name} needs --${flag}.`, [{ field: flag, message: "required" }]);
  }
  return { name, command, flags };
}

function print(body: unknown): Promise<void> {
  return new Promise((resolve) => process.stdout.write(JSON.stringify(body) + "\n", () => resolve()));
}

async function main(): Promise<number> {
  let database: DatabaseHandle | undefined;
  let disconnectDb: (() => Promise<void>) | undefined;
  try {
    const { name, command, flags } = parseArgs(process.argv.slice(2));
    const work = command.prepare(flags);
    // Loaded only once the input is known to be good: bad input answers quickly.
    const [{ ensureDatabase }, { applyMigrations }, dbModule] = await Promise.all([import("../runtime/database"), import("../runtime/migrations"), import("../db")]);
    disconnectDb = dbModule.disconnectDb;
    const config = env();
    database = await ensureDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, quiet: true });
    const applied = await applyMigrations(database.url);
    if (applied.length > 0) log.info("cli: migrations applied", { applied });
    setRuntimeEnv("DATABASE_URL", database.url);
    const result = await dbModule.db.$transaction(work, { maxWait: 10_000, timeout: 30_000 });
    log.info("cli: done", { command: name });
    await print(result);
    return 0;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      await print({ error: error.toBody() });
      return 2;
    }
    log.error("cli: failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    await print({ error: new ApiError("ERR5000", error instanceof Error ? error.message : "An internal error occurred.").toBody() });
    return 1;
  } finally {
    await disconnectDb?.().catch(() => undefined);
    await database?.stop().catch(() => undefined);
  }
}

// Exit explicitly: the schema engine (wasm) keeps the event loop alive for ~10 s.
main().then(
  (code) => process.exit(code),
  () => process.exit(1),
);

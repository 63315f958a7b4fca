import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { z } from "zod";
import { OPERATOR } from "../../base/account-scope";
import { changePlan } from "../../accounts/change-plan";
import { createAccount, plans } from "../../accounts/create-account";
import { formatCredits, parseCreditsToMillis } from "../../base/money";
import { addCredits } from "../../credits/add-credits";
import { regions } from "../../base/env";
import { ApiError, invalidRequest } from "../../base/error-table";
import { createApiKey } from "../../keys/create-key";
import { deleteApiKey } from "../../keys/delete-key";
import { parseIpAllowlist } from "../../keys/ip-allowlist";
import { revokeApiKey } from "../../keys/revoke-key";
import { rotateApiKey } from "../../keys/rotate-key";
import { resolveScopes, scopePresetNames } from "../../keys/scopes";
import type { DatabaseHandle } from "../database";
import { log } from "../../base/log";
import {
  ACTOR,
  dateFlag,
  list,
  oneOf,
  uuidFlag,
  type Command,
  type CommandResult,
  type DatabaseCommand,
  type FileCommand,
  type Flags,
} from "./commands/command";
import { catalogCommands } from "./commands/catalog";
import { exportCommands } from "./commands/export";
import { writeFileOutput } from "./write-file-output";
import { retentionCommands } from "./commands/retention";
import { webhookCommands } from "./commands/webhook";
import { hostnameCommands } from "./commands/hostname";
import { billingCommands, prepareContractPlan } from "./commands/billing";
import { autoTopUpCommands } from "./commands/auto-top-up";
import { storageCommands } from "./commands/storage";
import { bugReportCommands } from "./commands/bug-report";
import { spendCommands, spendFlags } from "./commands/spend";
import { getKeySpend } from "../../spend/key-spend";
import type { Tx } from "../../base/db";
import { resealWebhookSecrets } from "../../webhooks/reseal-secrets";
import { setServicePaused } from "../../service/service-state";

// The operator CLI: `npm run cli -- <command> [--flag value]`. Prints exactly one JSON object on
// stdout (logs go to stderr), except an export without --out, whose file is the stdout. Exit 0 on success, 2 on bad input (ERR1001, ERR1006), 1 otherwise.
// Flags are parsed strictly (node:util parseArgs) and checked before the runtime boots (bootRuntime,
// as the server); every mutation is one transaction, actor system.

function positiveCredits(flags: Flags, name: string): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const millis = parseCreditsToMillis(value, name);
  if (millis <= 0) throw invalidRequest(`--${name} must be greater than zero.`, [{ field: name, message: "must be greater than zero" }]);
  return millis;
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
      if (!z.email().safeParse(input.email.trim().toLowerCase()).success)
        throw invalidRequest("--email must be an e-mail address.", [{ field: "email", message: "must be an e-mail address" }]);
      return async (tx) => createAccount(tx, input);
    },
  },
  "key:create": {
    usage:
      "key:create --account A [--name N] [--preset full|generate|read|monitor] [--scopes s1,s2] [--region R] [--expires-at ISO] [--allow-ip ip-or-cidr,...] [--spend-limit X --spend-period day|week|month|total]",
    required: ["account"],
    optional: ["name", "preset", "scopes", "region", "expires-at", "allow-ip", "spend-limit", "spend-period"],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const preset = oneOf(flags, "preset", scopePresetNames);
      const scopes = list(flags.scopes);
      resolveScopes({ preset, scopes });
      const spend = spendFlags(flags, { limitRequired: false });
      const input = {
        accountId,
        name: flags.name ?? "Default key",
        preset,
        scopes,
        region: oneOf(flags, "region", regions),
        expiresAt: dateFlag(flags, "expires-at"),
        ipAllowlist: flags["allow-ip"] === undefined ? null : parseIpAllowlist(list(flags["allow-ip"]) ?? [], "allow-ip"),
        spendLimitMillis: spend.limitMillis,
        spendPeriod: spend.period,
        actor: ACTOR,
      };
      return async (tx) => {
        const created = await createApiKey(tx, input);
        const { apikey_id, ...budget } = await getKeySpend(tx, OPERATOR, created.apikey_id);
        return { apikey_id, key: created.key, apikey_prefix: created.apikey_prefix, ...budget };
      };
    },
  },
  "service:pause": {
    usage: "service:pause [--reason R]",
    required: [],
    optional: ["reason"],
    prepare(flags) {
      const reason = flags.reason;
      if (reason !== undefined && reason.length > 500)
        throw invalidRequest("--reason must be at most 500 characters.", [{ field: "reason", message: "must be at most 500 characters" }]);
      return async (tx) => {
        const state = await setServicePaused(tx, { paused: true, reason });
        log.warn("service paused: creates answer ERR3001", { reason: state.reason });
        return { paused: state.paused, reason: state.reason };
      };
    },
  },
  "service:resume": {
    usage: "service:resume",
    required: [],
    optional: [],
    prepare() {
      return async (tx) => {
        const state = await setServicePaused(tx, { paused: false });
        log.info("service resumed");
        return { paused: state.paused, reason: state.reason };
      };
    },
  },
  "secrets:rotate-key": {
    usage: "secrets:rotate-key (after setting ENCRYPTION_KEY to the new key and ENCRYPTION_KEYS_PREVIOUS to the old ones)",
    required: [],
    optional: [],
    prepare() {
      return async (tx) => resealWebhookSecrets(tx, { plainTextOnly: false });
    },
  },
  "key:rotate": {
    usage: "key:rotate --key-id K [--grace-hours H]",
    required: ["key-id"],
    optional: ["grace-hours"],
    prepare(flags) {
      const keyId = uuidFlag(flags, "key-id");
      const hours = flags["grace-hours"];
      if (hours !== undefined && !/^\d{1,3}$/.test(hours))
        throw invalidRequest("--grace-hours must be a whole number of hours from 1 to 168.", [
          { field: "grace-hours", message: "must be an integer from 1 to 168" },
        ]);
      return async (tx) => {
        const rotated = await rotateApiKey(tx, OPERATOR, {
          keyId,
          graceHours: hours === undefined ? undefined : Number(hours),
          actor: ACTOR,
        });
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
    usage:
      "account:plan --account A --plan P [--interval month|year --period-start ISO] (with --interval: a contract plan whose credits the renewal cron grants each period)",
    required: ["account", "plan"],
    optional: ["interval", "period-start"],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const plan = oneOf(flags, "plan", plans) ?? "";
      if (flags.interval !== undefined || flags["period-start"] !== undefined) {
        if (flags.interval === undefined)
          throw invalidRequest("--period-start needs --interval month|year.", [
            { field: "interval", message: "required with --period-start" },
          ]);
        const contract = prepareContractPlan(flags, accountId, plan);
        return async (tx) => contract.run(tx, contract);
      }
      return async (tx) => {
        const changed = await changePlan(tx, { accountId, plan, actor: ACTOR });
        // A bare plan change ends any contract period (its renewals stop); Stripe subscriptions are Stripe's.
        await tx.subscription.deleteMany({ where: { accountId, stripeSubscriptionId: null } });
        return { account_id: changed.account_id, plan: changed.plan };
      };
    },
  },
  ...webhookCommands,
  ...billingCommands,
  ...autoTopUpCommands,
  ...storageCommands,
  ...hostnameCommands,
  ...bugReportCommands,
  ...retentionCommands,
  ...spendCommands,
  ...catalogCommands,
  ...exportCommands,
};

function usageError(message: string): ApiError {
  return new ApiError("ERR1001", message, { usage: Object.values(commands).map((command) => `npm run cli -- ${command.usage}`) });
}

function needsValue(flag: string, hint = ""): ApiError {
  return invalidRequest(`--${flag} needs a value${hint}.`, [{ field: flag, message: "needs a value" }]);
}

type FlagOptions = Record<string, { type: "string"; multiple: true } | { type: "boolean"; multiple: true }>;

/** Why a strict parse failed, in the CLI's words: the first offending argument, read again leniently. */
function rejection(name: string, args: string[], options: FlagOptions, error: unknown): ApiError {
  const { tokens = [] } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") return usageError(`Unexpected argument: ${args[token.index]}.`);
    if (!options[token.name]) return usageError(`Unknown flag for ${name}: ${token.rawName}.`);
    if (options[token.name]?.type === "boolean") {
      if (token.inlineValue) return invalidRequest(`--${token.name} takes no value.`, [{ field: token.name, message: "takes no value" }]);
      continue;
    }
    if (token.value === undefined) return needsValue(token.name);
    if (!token.inlineValue && token.value.startsWith("--")) return needsValue(token.name);
    if (!token.inlineValue && token.value.startsWith("-"))
      return needsValue(token.name, ` (for one that starts with "-", write --${token.name}=${token.value})`);
  }
  return usageError(error instanceof Error ? error.message : String(error));
}

/** Every flag is a string given at most once; anything else is refused (node:util parseArgs). */
function strictParse(name: string, args: string[], known: string[], switches: string[] = []) {
  const options: FlagOptions = Object.fromEntries([
    ...known.map((flag) => [flag, { type: "string", multiple: true }] as const),
    ...switches.map((flag) => [flag, { type: "boolean", multiple: true }] as const),
  ]);
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    throw rejection(name, args, options, error);
  }
}

/** `<command> --flag value --flag=value ...` → the command and its flags, all checked. */
function parseCommandLine(argv: string[]): { name: string; command: Command; flags: Flags } {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!name || !command) throw usageError(name ? `Unknown command: ${name}.` : "No command given.");
  const parsed = strictParse(name, args, [...command.required, ...command.optional], command.switches);
  // A lone "--" ends the options in parseArgs; here nothing may follow the flags.
  if (parsed.tokens.some((token) => token.kind === "option-terminator")) throw usageError("Unexpected argument: --.");
  const flags: Flags = {};
  for (const [flag, values = []] of Object.entries(parsed.values)) {
    if (values.length > 1) throw invalidRequest(`--${flag} is given twice.`, [{ field: flag, message: "given twice" }]);
    const value = values[0];
    if (typeof value === "boolean") {
      flags[flag] = String(value);
      continue;
    }
    if (!value?.trim()) throw needsValue(flag);
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

type Booted = { database?: DatabaseHandle; disconnectDb?: () => Promise<void> };

/** Boots as the server does, then imports what the work needs; loaded only once the input is known to be good. */
async function boot(booted: Booted) {
  const [{ bootRuntime }, dbModule, { inTransaction }] = await Promise.all([
    import("../boot"),
    import("../../base/db"),
    import("../../base/transaction"),
  ]);
  booted.disconnectDb = dbModule.disconnectDb;
  booted.database = await bootRuntime({ quiet: true });
  return { db: dbModule.db, inTransaction };
}

/** A file command: the file goes to stdout or --out as it is read; with --out, `{out, bytes}` is printed. */
async function runFileCommand(command: FileCommand, flags: Flags, booted: Booted): Promise<CommandResult | null> {
  const work = command.prepare(flags);
  const { db } = await boot(booted);
  const output = await work(db);
  const bytes = await writeFileOutput(output.lines, flags.out);
  return flags.out === undefined ? null : { out: flags.out, bytes, filename: output.filename };
}

/** Validates the flags, then boots as the server does (configuration, the database, embedded unless DATABASE_URL, migrations) and runs the work. */
async function runWithDatabase(command: DatabaseCommand, flags: Flags, booted: Booted): Promise<CommandResult> {
  const work = command.prepare(flags);
  const { db, inTransaction } = await boot(booted);
  return command.transaction === false ? work(db as unknown as Tx) : inTransaction(work, { maxWait: 10_000, timeout: 30_000 });
}

async function main(): Promise<number> {
  const booted: Booted = {};
  try {
    const { name, command, flags } = parseCommandLine(process.argv.slice(2));
    const result =
      command.database === false
        ? await command.prepare(flags)()
        : command.database === "file"
          ? await runFileCommand(command, flags, booted)
          : await runWithDatabase(command, flags, booted);
    log.info("cli: done", { command: name });
    // A file written to stdout is the whole output.
    if (result === null) return 0;
    await print(result);
    return command.succeeded?.(result) === false ? 1 : 0;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      await print({ error: error.toBody() });
      return 2;
    }
    log.error("cli: failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    await print({ error: new ApiError("ERR5000", error instanceof Error ? error.message : "An internal error occurred.").toBody() });
    return 1;
  } finally {
    await booted.disconnectDb?.().catch(() => undefined);
    await booted.database?.stop().catch(() => undefined);
  }
}

// Exit explicitly: the schema engine (wasm) keeps the event loop alive for ~10 s.
main().then(
  (code) => process.exit(code),
  () => process.exit(1),
);

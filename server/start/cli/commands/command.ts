import { accountScope, type OneAccount } from "../../../base/account-scope";
import type { Db, Tx } from "../../../base/db";
import { ApiError, invalidRequest } from "../../../base/error-table";
import { isGuid } from "../../../base/guid";

// What every CLI command is, and the flag readers they share (server/start/cli/main.ts runs them).

export type Flags = Record<string, string>;

export type CommandResult = Record<string, unknown>;

type CommandShape = {
  usage: string;
  required: string[];
  optional: string[];
  /** Optional flags that take no value (`--path-style`): "true" in the flags when given. */
  switches?: string[];
  /** false: the result is printed all the same, and the exit status is 1 (a check that found problems). */
  succeeded?(result: CommandResult): boolean;
};

/** Boots the runtime (configuration, database, migrations) and runs against the database. */
export type DatabaseCommand = CommandShape & {
  database?: true;
  /** false: the work calls a network service (Stripe) or deletes in batches, and opens its own transactions; it gets the plain client. */
  transaction?: false;
  /** Validates flags without the database; returns the work to run in a transaction. */
  prepare(flags: Flags): (tx: Tx) => Promise<CommandResult>;
};

/** Needs no database (it reads the catalog and the env, or asks providers): nothing is booted. */
export type OfflineCommand = CommandShape & {
  database: false;
  /** Validates flags; returns the work. */
  prepare(flags: Flags): () => Promise<CommandResult>;
};

/** What a file command produces: its lines, pulled as they are written, and the file's usual name. */
export type FileOutput = { filename: string; lines: AsyncIterable<string> };

/**
 * Writes a file (an export) to stdout, or to `--out` (then prints `{out, bytes}`), instead of one
 * JSON object; a refusal before the file starts is still the JSON error on stdout.
 */
export type FileCommand = CommandShape & {
  database: "file";
  /** Validates flags without the database; returns the work, run with the plain client. */
  prepare(flags: Flags): (db: Db) => Promise<FileOutput>;
};

export type Command = DatabaseCommand | OfflineCommand | FileCommand;

export const ACTOR = "system";

export function uuidFlag(flags: Flags, name: string): string {
  const value = flags[name] ?? "";
  if (!isGuid(value)) throw invalidRequest(`--${name} must be a UUID.`, [{ field: name, message: "must be a UUID" }]);
  return value;
}

export function oneOf<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (!allowed.some((entry) => entry === value)) {
    throw invalidRequest(`--${name} must be one of ${allowed.join(", ")}.`, [
      { field: name, message: `must be one of ${allowed.join(", ")}` },
    ]);
  }
  return value as T;
}

export function list(value: string | undefined): string[] | undefined {
  return value
    ?.split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function dateFlag(flags: Flags, name: string): Date | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!isoDateTime.test(value) || Number.isNaN(date.getTime())) {
    throw invalidRequest(`--${name} must be an ISO 8601 date-time.`, [{ field: name, message: "must be an ISO 8601 date-time" }]);
  }
  return date;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD flag (a UTC date), checked for shape here; the range rules are the export's. */
export function dayFlag(flags: Flags, name: string): string | undefined {
  const value = flags[name];
  if (value !== undefined && !DAY.test(value))
    throw invalidRequest(`--${name} must be a date as YYYY-MM-DD.`, [{ field: name, message: "must be a date as YYYY-MM-DD (UTC)" }]);
  return value;
}

/** The account `--account` names, if it exists and is not deleted (else ERR1006). */
export async function existingAccount(db: Db | Tx, accountId: string): Promise<OneAccount> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { id: true, deletedAt: true } });
  if (!account || account.deletedAt) throw new ApiError("ERR1006", "The account was not found.", { account_id: accountId });
  return accountScope(accountId);
}

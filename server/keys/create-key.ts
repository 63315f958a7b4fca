import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { regions, type RegionName } from "../base/env";
import { ApiError, invalidRequest } from "../base/error-table";
import { newApiKey } from "./generate-key";
import { parseIpAllowlist } from "./ip-allowlist";
import { resolveScopes, type ApiKeyScope } from "./scopes";
import { millisToDecimalString, type Millicredits } from "../base/money";
import type { SpendPeriod } from "../base/generated/prisma/enums";
import { isGuid } from "../base/guid";

// Creates a key. The raw value is returned once and never stored.

export const MAX_KEY_NAME_LENGTH = 100;

export type CreateApiKeyInput = {
  accountId: string;
  name: string;
  preset?: string;
  scopes?: readonly string[];
  /** Defaults to the account's region. */
  region?: string;
  expiresAt?: Date | null;
  ipAllowlist?: readonly string[] | null;
  /** A spend limit for the key's budget (server/spend); its period defaults to `month`. */
  spendLimitMillis?: Millicredits | null;
  spendPeriod?: SpendPeriod;
  actor: ActivityActor;
};

export type CreatedApiKey = {
  apikey_id: string;
  /** The full value: shown once, never stored. */
  key: string;
  apikey_prefix: string;
  apikey_name: string;
  apikey_created_at: string;
  apikey_expires_at: string | null;
  scopes: ApiKeyScope[];
  region: RegionName;
  ip_allowlist: string[] | null;
};

function validateKeyName(name: string): string {
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > MAX_KEY_NAME_LENGTH) {
    throw invalidRequest(`The key name must be 1 to ${MAX_KEY_NAME_LENGTH} characters.`, [
      { field: "name", message: `must be 1 to ${MAX_KEY_NAME_LENGTH} characters` },
    ]);
  }
  return trimmed;
}

function validateExpiry(expiresAt: Date | null | undefined, now: Date): Date | null {
  if (expiresAt === null || expiresAt === undefined) return null;
  if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= now.getTime()) {
    throw invalidRequest("The expiry must be a date-time in the future.", [{ field: "expires_at", message: "must be in the future" }]);
  }
  return expiresAt;
}

function validateRegion(region: string): RegionName {
  if (!(regions as readonly string[]).includes(region)) {
    throw invalidRequest(`Unknown region: ${region}. Known regions: ${regions.join(", ")}.`, [
      { field: "region", message: "unknown region" },
    ]);
  }
  return region as RegionName;
}

export async function createApiKey(tx: Tx, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const now = new Date();
  const name = validateKeyName(input.name);
  const scopes = resolveScopes({ preset: input.preset, scopes: input.scopes });
  const expiresAt = validateExpiry(input.expiresAt, now);
  const ipAllowlist = parseIpAllowlist(input.ipAllowlist ?? null);

  const account = isGuid(input.accountId)
    ? await tx.account.findUnique({ where: { id: input.accountId }, select: { id: true, region: true } })
    : null;
  if (!account) throw new ApiError("ERR1006", "Account not found.", { account_id: input.accountId });
  const region = input.region === undefined ? account.region : validateRegion(input.region);

  const { key, hash, prefix } = newApiKey();
  const row = await tx.apiKey.create({
    data: {
      accountId: account.id,
      name,
      hash,
      prefix,
      scopes,
      region,
      ipAllowlist: ipAllowlist ?? undefined,
      expiresAt,
      ...(input.spendLimitMillis === undefined || input.spendLimitMillis === null
        ? {}
        : { spendLimit: millisToDecimalString(input.spendLimitMillis), spendPeriod: input.spendPeriod ?? "month" }),
      createdById: input.actor !== "system" && isGuid(input.actor) ? input.actor : null,
    },
  });

  await recordActivity(tx, {
    accountId: account.id,
    actor: input.actor,
    category: "api_key",
    action: "api_key.created",
    description: `API key "${name}" (${prefix}) created`,
    metadata: {
      apikey_id: row.id,
      apikey_prefix: prefix,
      scopes,
      region,
      expires_at: expiresAt?.toISOString() ?? null,
      ip_allowlist: ipAllowlist,
      ...(row.spendLimit === null ? {} : { spend_limit: Number(row.spendLimit.toFixed()), spend_period: row.spendPeriod }),
    },
  });

  return {
    apikey_id: row.id,
    key,
    apikey_prefix: prefix,
    apikey_name: name,
    apikey_created_at: row.createdAt.toISOString(),
    apikey_expires_at: row.expiresAt?.toISOString() ?? null,
    scopes,
    region,
    ip_allowlist: ipAllowlist,
  };
}

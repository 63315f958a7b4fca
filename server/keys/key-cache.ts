import "server-only";
import { sqlPool } from "../base/db";
import type { RegionName } from "../base/env";
import type { ApiKeyStatus } from "../base/generated/prisma/enums";
import type { PlanName } from "../plans/plan-limits";
import { changeFeed } from "../base/change-feed";

// Key rows by key hash, cached per process so an authenticated request costs no lookup. Another
// instance's revoke, rotation, delete, expiry change or plan change reaches this one through
// PostgreSQL LISTEN/NOTIFY (server/base/change-feed.ts): triggers on api_key and account
// (migration key_change_notify) call pg_notify in the changing transaction. The cache is only
// used while the feed is listening; when its connection drops the cache is emptied and every
// lookup reads the database until LISTEN is back. Expiry and rotation grace are judged per
// request from the row.

export const KEY_CHANGE_CHANNEL = "darkroom_key_change";
const MAX_ENTRIES = 10_000;
/** A safety net only: notifications are what keep entries fresh. */
const MAX_AGE_MS = 10 * 60_000;

export type KeyRow = {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  scopes: string[];
  region: RegionName;
  status: ApiKeyStatus;
  ipAllowlist: unknown;
  expiresAt: Date | null;
  graceEndsAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  account: { id: string; plan: PlanName; region: RegionName; deletedAt: Date | null };
};

type Entry = { row: KeyRow; storedAt: number };

/** On globalThis: Next's bundle and the boot script load separate copies of this module. */
type CacheState = { entries: Map<string, Entry>; hits: number; misses: number };

const globalCache = globalThis as unknown as { darkroomKeyCache?: CacheState };

function state(): CacheState {
  globalCache.darkroomKeyCache ??= { entries: new Map(), hits: 0, misses: 0 };
  return globalCache.darkroomKeyCache;
}

/** Payload 'key:<hash>' drops one key, 'account:<id>' every key of the account, anything else all. */
function invalidate(payload: string) {
  const { entries } = state();
  if (payload.startsWith("key:")) {
    entries.delete(payload.slice(4));
  } else if (payload.startsWith("account:")) {
    const accountId = payload.slice(8);
    for (const [hash, entry] of entries) if (entry.row.account.id === accountId) entries.delete(hash);
  } else {
    entries.clear();
  }
}

const feed = changeFeed({ name: "key-cache", channel: KEY_CHANGE_CHANNEL, onNotice: invalidate, onReset: () => state().entries.clear() });

async function readKeyRow(hash: string): Promise<KeyRow | null> {
  const { rows } = await sqlPool().query<{
    id: string;
    account_id: string;
    name: string;
    prefix: string;
    scopes: string[];
    region: RegionName;
    status: ApiKeyStatus;
    ip_allowlist: unknown;
    expires_at: Date | null;
    grace_ends_at: Date | null;
    created_at: Date;
    last_used_at: Date | null;
    plan: PlanName;
    account_region: RegionName;
    account_deleted_at: Date | null;
  }>(
    `SELECT k.id, k.account_id, k.name, k.prefix, k.scopes, k.region, k.status, k.ip_allowlist, k.expires_at, k.grace_ends_at,
            k.created_at, k.last_used_at, a.plan, a.region AS account_region, a.deleted_at AS account_deleted_at
       FROM api_key k JOIN account a ON a.id = k.account_id
      WHERE k.hash = $1`,
    [hash],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    region: row.region,
    status: row.status,
    ipAllowlist: row.ip_allowlist,
    expiresAt: row.expires_at,
    graceEndsAt: row.grace_ends_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    account: { id: row.account_id, plan: row.plan, region: row.account_region, deletedAt: row.account_deleted_at },
  };
}

/**
 * The key row (with its account's plan and region) for a key hash, or null: from this process's
 * cache while the change listener is connected, else from the database. Callers judge the state.
 */
export async function lookupKeyByHash(hash: string, now = Date.now()): Promise<KeyRow | null> {
  const cache = state();
  if (feed.listening()) {
    const entry = cache.entries.get(hash);
    if (entry && now - entry.storedAt < MAX_AGE_MS) {
      cache.hits += 1;
      return entry.row;
    }
  }
  cache.misses += 1;
  const epoch = feed.epoch();
  const row = await readKeyRow(hash);
  // Unknown keys are not cached: a new key's INSERT sends no notice.
  if (row && feed.listening() && feed.epoch() === epoch) {
    cache.entries.delete(hash);
    cache.entries.set(hash, { row, storedAt: Date.now() });
    if (cache.entries.size > MAX_ENTRIES) {
      const oldest = cache.entries.keys().next().value;
      if (oldest !== undefined) cache.entries.delete(oldest);
    }
  }
  return row;
}

/** For tests and health: whether the listener is up, how many keys are held, hits and misses. */
export function keyCacheStats() {
  const cache = state();
  return { listening: feed.listening(), size: cache.entries.size, hits: cache.hits, misses: cache.misses, backendPid: feed.backendPid() };
}

/** Resolves once the listener is connected (or after `timeoutMs`); starts it if needed. */
export const keyCacheReady = (timeoutMs = 5_000): Promise<boolean> => feed.ready(timeoutMs);

/** Closes the listener and empties the cache (shutdown, tests). */
export const stopKeyCache = (): Promise<void> => feed.stop();

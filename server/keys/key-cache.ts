import "server-only";
import pg from "pg";
import { sqlPool } from "../db";
import { env, type RegionName } from "../env";
import type { ApiKeyStatus } from "../generated/prisma/enums";
import type { PlanName } from "../plans/plan-limits";
import { log } from "../runtime/log";
import { onShutdown } from "../runtime/shutdown";

// Key rows by key hash, cached per process so an authenticated request costs no lookup. Another
// instance's revoke, rotation, delete, expiry change or plan change reaches this one through
// PostgreSQL LISTEN/NOTIFY: triggers on api_key and account (migration key_change_notify) call
// pg_notify in the changing transaction, so the notice leaves exactly when the change commits,
// whichever code path (domain function, CLI, SQL) made it. The cache is only used while the
// listener is connected; when the connection drops it is emptied and every lookup reads the
// database until LISTEN is back. Expiry and rotation grace are judged per request from the row.

export const KEY_CHANGE_CHANNEL = "darkroom_key_change";
const MAX_ENTRIES = 10_000;
/** A safety net only: notifications are what keep entries fresh. */
const MAX_AGE_MS = 10 * 60_000;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

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

type CacheState = {
  entries: Map<string, Entry>;
  /** Moves on every invalidation: a lookup that raced one does not store what it read. */
  epoch: number;
  listening: boolean;
  client: pg.Client | null;
  connecting: boolean;
  stopped: boolean;
  reconnectDelayMs: number;
  reconnectTimer: NodeJS.Timeout | null;
  hits: number;
  misses: number;
};

const globalCache = globalThis as unknown as { darkroomKeyCache?: CacheState };

function state(): CacheState {
  globalCache.darkroomKeyCache ??= {
    entries: new Map(),
    epoch: 0,
    listening: false,
    client: null,
    connecting: false,
    stopped: false,
    reconnectDelayMs: RECONNECT_MIN_MS,
    reconnectTimer: null,
    hits: 0,
    misses: 0,
  };
  return globalCache.darkroomKeyCache;
}

function invalidate(cache: CacheState, payload: string) {
  cache.epoch += 1;
  if (payload.startsWith("key:")) {
    cache.entries.delete(payload.slice(4));
  } else if (payload.startsWith("account:")) {
    const accountId = payload.slice(8);
    for (const [hash, entry] of cache.entries) if (entry.row.account.id === accountId) cache.entries.delete(hash);
  } else {
    cache.entries.clear();
  }
}

function connectionLost(cache: CacheState, client: pg.Client, reason: string) {
  if (cache.client !== client) return;
  cache.client = null;
  cache.listening = false;
  cache.entries.clear();
  cache.epoch += 1;
  client.removeAllListeners("end");
  client.end().catch(() => undefined);
  if (!cache.stopped) log.warn("key cache listener lost; reading keys from the database until it is back", { reason });
  scheduleReconnect(cache);
}

function scheduleReconnect(cache: CacheState) {
  if (cache.stopped || cache.reconnectTimer) return;
  const delay = cache.reconnectDelayMs;
  cache.reconnectDelayMs = Math.min(RECONNECT_MAX_MS, delay * 2);
  cache.reconnectTimer = setTimeout(() => {
    cache.reconnectTimer = null;
    void listen(cache);
  }, delay);
  cache.reconnectTimer.unref();
}

async function listen(cache: CacheState) {
  if (cache.stopped || cache.connecting || cache.client) return;
  const url = env().DATABASE_URL;
  if (!url) return;
  cache.connecting = true;
  const client = new pg.Client({ connectionString: url, application_name: "darkroom-key-cache" });
  try {
    client.on("notification", (message) => {
      if (message.channel === KEY_CHANGE_CHANNEL) invalidate(cache, message.payload ?? "");
    });
    client.on("error", (error) => connectionLost(cache, client, error.message));
    client.on("end", () => connectionLost(cache, client, "connection ended"));
    await client.connect();
    await client.query(`LISTEN ${KEY_CHANGE_CHANNEL}`);
    if (cache.stopped) {
      await client.end();
      return;
    }
    cache.client = client;
    cache.entries.clear();
    cache.epoch += 1;
    cache.listening = true;
    cache.reconnectDelayMs = RECONNECT_MIN_MS;
  } catch (error) {
    client.removeAllListeners("end");
    client.end().catch(() => undefined);
    log.warn("key cache listener could not connect", { error: error instanceof Error ? error.message : String(error) });
    scheduleReconnect(cache);
  } finally {
    cache.connecting = false;
  }
}

function start(cache: CacheState) {
  if (cache.client || cache.connecting || cache.reconnectTimer || cache.stopped) return;
  onShutdown("key-cache", stopKeyCache);
  void listen(cache);
}

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
  start(cache);
  if (cache.listening) {
    const entry = cache.entries.get(hash);
    if (entry && now - entry.storedAt < MAX_AGE_MS) {
      cache.hits += 1;
      return entry.row;
    }
  }
  cache.misses += 1;
  const epoch = cache.epoch;
  const row = await readKeyRow(hash);
  // Unknown keys are not cached: a new key's INSERT sends no notice.
  if (row && cache.listening && cache.epoch === epoch) {
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
  return {
    listening: cache.listening,
    size: cache.entries.size,
    hits: cache.hits,
    misses: cache.misses,
    backendPid: cache.listening ? ((cache.client as unknown as { processID?: number } | null)?.processID ?? null) : null,
  };
}

/** Resolves once the listener is connected (or after `timeoutMs`); starts it if needed. */
export async function keyCacheReady(timeoutMs = 5_000): Promise<boolean> {
  const cache = state();
  cache.stopped = false;
  start(cache);
  const deadline = Date.now() + timeoutMs;
  while (!cache.listening && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return cache.listening;
}

/** Closes the listener and empties the cache (shutdown, tests). */
export async function stopKeyCache(): Promise<void> {
  const cache = state();
  cache.stopped = true;
  cache.listening = false;
  cache.entries.clear();
  cache.epoch += 1;
  if (cache.reconnectTimer) clearTimeout(cache.reconnectTimer);
  cache.reconnectTimer = null;
  const client = cache.client;
  cache.client = null;
  if (client) {
    client.removeAllListeners("end");
    await client.end().catch(() => undefined);
  }
}

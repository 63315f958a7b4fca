import "server-only";
import { changeFeed } from "../../base/change-feed";
import type { RecordSource } from "./public-record";

// Finished generations (succeeded, failed, canceled) by id, cached per process: clients poll
// GET /v1/content/{id} and keep reading a record that no longer changes. A row is stored only once
// it is finished, so any later change (removal, retention purge, an operator's SQL) is an UPDATE or
// DELETE of a finished row, which the triggers of migration generation_change_notify announce on
// darkroom_generation_change; every instance drops the entry when the change commits. Served from
// memory only while that feed listens (server/base/change-feed.ts). Output URLs are signed per
// request from the row (they depend on the reader's plan), so only the row is kept.

export const GENERATION_CHANGE_CHANNEL = "darkroom_generation_change";
const MAX_ENTRIES = 5_000;
const FINISHED: ReadonlySet<RecordSource["status"]> = new Set(["succeeded", "failed", "canceled"]);

type CacheState = { rows: Map<string, RecordSource>; hits: number; misses: number };

/** On globalThis: Next's bundle and the boot script load separate copies of this module. */
const globalCache = globalThis as unknown as { darkroomRecordCache?: CacheState };

function state(): CacheState {
  globalCache.darkroomRecordCache ??= { rows: new Map(), hits: 0, misses: 0 };
  return globalCache.darkroomRecordCache;
}

const feed = changeFeed({
  name: "record-cache",
  channel: GENERATION_CHANGE_CHANNEL,
  onNotice: (generationId) => state().rows.delete(generationId),
  onReset: () => state().rows.clear(),
});

/** The account's finished generation from memory, or undefined (read the database, then `remember`). */
export function cachedRecordSource(generationId: string, accountId: string): RecordSource | undefined {
  const cache = state();
  const row = feed.listening() ? cache.rows.get(generationId) : undefined;
  if (row && row.accountId === accountId) {
    cache.hits += 1;
    return row;
  }
  cache.misses += 1;
  return undefined;
}

/** Where the feed stood before a database read: `remember` stores only if nothing changed since. */
export const recordCacheEpoch = () => feed.epoch();

/** Keeps a finished row read at `epoch` (a row still in flight will change: it is not kept). */
export function remember(row: RecordSource, epoch: number) {
  if (!FINISHED.has(row.status) || !feed.listening() || feed.epoch() !== epoch) return;
  const { rows } = state();
  rows.delete(row.id);
  rows.set(row.id, row);
  if (rows.size > MAX_ENTRIES) {
    const oldest = rows.keys().next().value;
    if (oldest !== undefined) rows.delete(oldest);
  }
}

/**
 * Drops a row this process just changed (a delete), once its change committed: the caller's next
 * read sees it at once, without waiting for the change feed's notice (other instances still do).
 */
export function forgetRecord(generationId: string) {
  state().rows.delete(generationId);
}

/** For tests: whether the feed listens, how many rows are held, hits and misses. */
export function recordCacheStats() {
  const cache = state();
  return { listening: feed.listening(), size: cache.rows.size, hits: cache.hits, misses: cache.misses, backendPid: feed.backendPid() };
}

export const recordCacheReady = (timeoutMs = 5_000): Promise<boolean> => feed.ready(timeoutMs);
export const stopRecordCache = (): Promise<void> => feed.stop();

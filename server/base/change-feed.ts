import "server-only";
import pg from "pg";
import { env } from "./env";
import { log } from "./log";
import { onShutdown } from "./shutdown";

// A PostgreSQL LISTEN connection that keeps one of this process's caches fresh. Triggers call
// pg_notify in the transaction that changes a row, so a notice leaves exactly when the change
// commits, whichever code path (domain function, CLI, SQL, another instance) made it. A cache may
// serve from memory only while its feed is `listening`: when the connection drops, the feed resets
// the cache (it may have missed notices) and reconnects with backoff; until then every read goes
// to the database. `epoch` moves on every notice and reset: a read that raced one must not store
// what it read. Feeds live on globalThis by name: Next's bundle and the boot script load separate
// copies of this module.

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

export type ChangeFeedOptions = {
  /** Names the connection (application_name) and the shutdown hook. */
  name: string;
  channel: string;
  /** A notice's payload, as the trigger sent it. */
  onNotice(payload: string): void;
  /** Forget everything: notices may have been missed. */
  onReset(): void;
};

type FeedState = {
  options: ChangeFeedOptions;
  client: pg.Client | null;
  listening: boolean;
  connecting: boolean;
  stopped: boolean;
  epoch: number;
  reconnectDelayMs: number;
  reconnectTimer: NodeJS.Timeout | null;
};

export type ChangeFeed = {
  /** Whether notices are arriving: only then may the cache serve from memory. Starts the feed. */
  listening(): boolean;
  epoch(): number;
  /** The listening connection's backend pid (tests end it to simulate a lost connection). */
  backendPid(): number | null;
  /** Resolves once listening (or after `timeoutMs`); (re)starts a stopped feed. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** Closes the connection and resets the cache (shutdown, tests). */
  stop(): Promise<void>;
};

const globalFeeds = globalThis as unknown as { darkroomChangeFeeds?: Map<string, FeedState> };

function reset(feed: FeedState) {
  feed.epoch += 1;
  feed.options.onReset();
}

function connectionLost(feed: FeedState, client: pg.Client, reason: string) {
  if (feed.client !== client) return;
  feed.client = null;
  feed.listening = false;
  reset(feed);
  client.removeAllListeners("end");
  client.end().catch(() => undefined);
  if (!feed.stopped) log.warn(`${feed.options.name} listener lost; reading from the database until it is back`, { reason });
  scheduleReconnect(feed);
}

function scheduleReconnect(feed: FeedState) {
  if (feed.stopped || feed.reconnectTimer) return;
  const delay = feed.reconnectDelayMs;
  feed.reconnectDelayMs = Math.min(RECONNECT_MAX_MS, delay * 2);
  feed.reconnectTimer = setTimeout(() => {
    feed.reconnectTimer = null;
    void listen(feed);
  }, delay);
  feed.reconnectTimer.unref();
}

async function listen(feed: FeedState) {
  if (feed.stopped || feed.connecting || feed.client) return;
  const url = env().DATABASE_URL;
  if (!url) return;
  feed.connecting = true;
  const client = new pg.Client({ connectionString: url, application_name: `darkroom-${feed.options.name}` });
  try {
    client.on("notification", (message) => {
      if (message.channel !== feed.options.channel) return;
      feed.epoch += 1;
      feed.options.onNotice(message.payload ?? "");
    });
    client.on("error", (error) => connectionLost(feed, client, error.message));
    client.on("end", () => connectionLost(feed, client, "connection ended"));
    await client.connect();
    await client.query(`LISTEN ${feed.options.channel}`);
    if (feed.stopped) {
      await client.end();
      return;
    }
    feed.client = client;
    reset(feed);
    feed.listening = true;
    feed.reconnectDelayMs = RECONNECT_MIN_MS;
  } catch (error) {
    client.removeAllListeners("end");
    client.end().catch(() => undefined);
    log.warn(`${feed.options.name} listener could not connect`, { error: error instanceof Error ? error.message : String(error) });
    scheduleReconnect(feed);
  } finally {
    feed.connecting = false;
  }
}

function start(feed: FeedState) {
  if (feed.client || feed.connecting || feed.reconnectTimer || feed.stopped) return;
  onShutdown(feed.options.name, () => stop(feed));
  void listen(feed);
}

async function stop(feed: FeedState) {
  feed.stopped = true;
  feed.listening = false;
  reset(feed);
  if (feed.reconnectTimer) clearTimeout(feed.reconnectTimer);
  feed.reconnectTimer = null;
  const client = feed.client;
  feed.client = null;
  if (client) {
    client.removeAllListeners("end");
    await client.end().catch(() => undefined);
  }
}

/** The feed called `options.name` (created on first use, started on first `listening()`). */
export function changeFeed(options: ChangeFeedOptions): ChangeFeed {
  globalFeeds.darkroomChangeFeeds ??= new Map();
  let feed = globalFeeds.darkroomChangeFeeds.get(options.name);
  if (!feed) {
    feed = {
      options,
      client: null,
      listening: false,
      connecting: false,
      stopped: false,
      epoch: 0,
      reconnectDelayMs: RECONNECT_MIN_MS,
      reconnectTimer: null,
    };
    globalFeeds.darkroomChangeFeeds.set(options.name, feed);
  }
  const state = feed;
  return {
    listening: () => {
      start(state);
      return state.listening;
    },
    epoch: () => state.epoch,
    backendPid: () => (state.listening ? ((state.client as unknown as { processID?: number } | null)?.processID ?? null) : null),
    ready: async (timeoutMs = 5_000) => {
      state.stopped = false;
      start(state);
      const deadline = Date.now() + timeoutMs;
      while (!state.listening && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      return state.listening;
    },
    stop: () => stop(state),
  };
}

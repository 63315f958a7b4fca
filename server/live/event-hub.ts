import "server-only";
import { sqlPool } from "../base/db";
import { changeFeed } from "../base/change-feed";
import { lookupKeyByHash } from "../keys/key-cache";
import { keyStateAt } from "../keys/key-state";
import { log } from "../base/log";
import { onShutdown } from "../base/shutdown";
import { refusedDashboardHoldings, type DashboardSession } from "./dashboard-access";
import { renewStreamLeases } from "./stream-leases";
import { EVENT_COLUMNS, toStoredEvent, type EventRow, type StoredEvent } from "./live-event";

// The process's one reader of generation_event, for every stream it serves: one LISTEN
// connection (NOTIFY darkroom_generation_event from the triggers), one query per wake-up, events
// handed to each subscriber of the event's account in id order. `watermark`: every id up to it is
// settled (committed and handed out, or never to commit); an id still missing is waited for while
// its writer holds the advisory lock the trigger took (migration generation_events). One shared
// tick (no timer per stream) sends heartbeats, ends the streams of keys that stopped working and
// of dashboard sessions that lost their access (one query for all), and renews the stream leases.

export const EVENT_CHANNEL = "darkroom_generation_event";
const EVENT_LOCK_CLASS = 27765;
const READ_BATCH = 500;
const TICK_MS = 250;
/** Dashboard access is read every other tick: a lost access ends its streams within a second. */
const ACCESS_CHECK_TICKS = 2;
/** Stream leases are renewed every second (server/live/stream-leases.ts). */
const LEASE_RENEW_TICKS = 4;
/** A comment every 15 s keeps proxies and clients from timing an idle stream out. */
export const HEARTBEAT_MS = 15_000;
/** Longer gaps are sequence jumps, not transactions to wait for. */
const MAX_GAP_CHECK = 10_000n;
const GAP_RETRY_MS = 5;

export type Subscriber = {
  accountId: string;
  /** API streams: the key's hash, checked every tick; dashboard streams: null. */
  keyHash: string | null;
  /** Dashboard streams: the session, checked every other tick; API streams: undefined. */
  session?: DashboardSession;
  push(event: StoredEvent): void;
  heartbeat(): void;
  /** The server ends the stream (key refused, access lost, shutdown). */
  end(reason: string): void;
};

type HubState = {
  watermark: bigint | null;
  starting: Promise<void> | null;
  byAccount: Map<string, Set<Subscriber>>;
  count: number;
  pumping: boolean;
  again: boolean;
  gapTimer: NodeJS.Timeout | null;
  ticker: NodeJS.Timeout | null;
  ticks: number;
  checkingAccess: boolean;
  lastHeartbeatAt: number;
};

const globalHub = globalThis as unknown as { darkroomEventHub?: HubState };

function hub(): HubState {
  globalHub.darkroomEventHub ??= {
    watermark: null,
    starting: null,
    byAccount: new Map(),
    count: 0,
    pumping: false,
    again: false,
    gapTimer: null,
    ticker: null,
    ticks: 0,
    checkingAccess: false,
    lastHeartbeatAt: Date.now(),
  };
  return globalHub.darkroomEventHub;
}

const feed = changeFeed({ name: "live-events", channel: EVENT_CHANNEL, onNotice: () => wake(), onReset: () => wake() });

/** Whether every id in [from, to] is settled: no writer still holds its lock. */
async function gapSettled(from: bigint, to: bigint): Promise<boolean> {
  if (to - from >= MAX_GAP_CHECK) return true;
  const { rows } = await sqlPool().query<{ held: number }>({
    name: "live-event-gap",
    text: `SELECT count(*) FILTER (WHERE NOT pg_try_advisory_xact_lock_shared(${EVENT_LOCK_CLASS}, (g % 2147483647)::int))::int AS held
             FROM generate_series($1::bigint, $2::bigint) g`,
    values: [from.toString(), to.toString()],
  });
  return (rows[0]?.held ?? 0) === 0;
}

async function readAfter(after: bigint, before: bigint | null): Promise<EventRow[]> {
  const { rows } = await sqlPool().query<EventRow>({
    name: before === null ? "live-events-after" : "live-events-between",
    text: `SELECT ${EVENT_COLUMNS} FROM generation_event WHERE id > $1 ${before === null ? "" : "AND id < $2"} ORDER BY id LIMIT ${READ_BATCH}`,
    values: before === null ? [after.toString()] : [after.toString(), before.toString()],
  });
  return rows;
}

function deliver(state: HubState, row: EventRow) {
  const event = toStoredEvent(row);
  state.watermark = event.id;
  const subscribers = state.byAccount.get(event.accountId);
  if (!subscribers) return;
  for (const subscriber of subscribers) subscriber.push(event);
}

/** Hands out every settled event past the watermark; false when it stopped at an unsettled id. */
async function pumpOnce(state: HubState): Promise<boolean> {
  for (;;) {
    const watermark = state.watermark ?? 0n;
    const rows = await readAfter(watermark, null);
    for (const row of rows) {
      const id = BigInt(row.id);
      const expected = (state.watermark ?? 0n) + 1n;
      if (id > expected) {
        if (!(await gapSettled(expected, id - 1n))) return false;
        // Ids of the gap that committed since the read above come first.
        for (const late of await readAfter(expected - 1n, id)) deliver(state, late);
      }
      deliver(state, row);
    }
    if (rows.length < READ_BATCH) return true;
  }
}

function wake() {
  const state = hub();
  if (state.watermark === null) return;
  // No stream here: nothing to read. The next stream starts from the newest id again.
  if (state.count === 0) {
    state.watermark = null;
    return;
  }
  if (state.pumping) {
    state.again = true;
    return;
  }
  state.pumping = true;
  void (async () => {
    try {
      do {
        state.again = false;
        if (!(await pumpOnce(state)) && !state.gapTimer) {
          state.gapTimer = setTimeout(() => {
            state.gapTimer = null;
            wake();
          }, GAP_RETRY_MS);
          state.gapTimer.unref();
        }
      } while (state.again);
    } catch (error) {
      log.warn("live event read failed; retrying on the next tick", { error: error instanceof Error ? error.message : String(error) });
    } finally {
      state.pumping = false;
    }
  })();
}

/**
 * The settled watermark at start: the newest id, or just below the oldest id of the last
 * thousand whose writer is still in its transaction.
 */
async function startingWatermark(): Promise<bigint> {
  const { rows } = await sqlPool().query<{ max: string }>("SELECT coalesce(max(id), 0)::text AS max FROM generation_event");
  const newest = BigInt(rows[0]?.max ?? "0");
  if (newest === 0n) return 0n;
  const { rows: held } = await sqlPool().query<{ first: string | null }>(
    `SELECT min(g)::text AS first FROM generate_series(greatest($1::bigint - 1000, 1), $1::bigint) g
      WHERE NOT pg_try_advisory_xact_lock_shared(${EVENT_LOCK_CLASS}, (g % 2147483647)::int)`,
    [newest.toString()],
  );
  const first = held[0]?.first;
  return first ? BigInt(first) - 1n : newest;
}

/**
 * Listening, with a watermark: from here on every committed event is handed to subscribers. Call
 * it once subscribed (an idle hub forgets its watermark and reads nothing).
 */
export async function hubReady(): Promise<void> {
  const state = hub();
  if (state.watermark !== null && feed.listening()) return;
  state.starting ??= (async () => {
    await feed.ready();
    if (state.watermark === null) state.watermark = await startingWatermark();
    onShutdown("live-streams", endAllStreams);
  })().finally(() => {
    state.starting = null;
  });
  await state.starting;
  wake();
}

/** The last settled event id (a new stream starts after it). */
export function watermark(): bigint {
  return hub().watermark ?? 0n;
}

export function subscribe(subscriber: Subscriber): () => void {
  const state = hub();
  const set = state.byAccount.get(subscriber.accountId) ?? new Set<Subscriber>();
  state.byAccount.set(subscriber.accountId, set);
  if (!set.has(subscriber)) {
    set.add(subscriber);
    state.count += 1;
  }
  startTicker(state);
  return () => {
    if (!set.delete(subscriber)) return;
    state.count -= 1;
    if (set.size === 0 && state.byAccount.get(subscriber.accountId) === set) state.byAccount.delete(subscriber.accountId);
    if (state.count === 0) stopTicker(state);
  };
}

function startTicker(state: HubState) {
  if (state.ticker) return;
  state.lastHeartbeatAt = Date.now();
  state.ticker = setInterval(() => void tick(state), TICK_MS);
  state.ticker.unref();
}

function stopTicker(state: HubState) {
  if (state.ticker) clearInterval(state.ticker);
  state.ticker = null;
}

/** Keys that no longer accept requests (revoked, expired, rotated past grace, account gone). */
async function refusedKeys(hashes: Set<string>): Promise<Set<string>> {
  const refused = new Set<string>();
  const now = new Date();
  for (const hash of hashes) {
    const row = await lookupKeyByHash(hash, now.getTime()).catch(() => undefined);
    if (row === undefined) continue; // the database is unreachable: judge on the next tick
    if (!row || row.account.deletedAt || !keyStateAt(row, now).acceptsRequests) refused.add(hash);
  }
  return refused;
}

async function tick(state: HubState) {
  state.ticks += 1;
  // Without the listener nothing announces events: read every tick until it is back.
  if (!feed.listening()) wake();
  const subscribers = [...state.byAccount.values()].flatMap((set) => [...set]);
  const hashes = new Set(subscribers.flatMap((subscriber) => (subscriber.keyHash ? [subscriber.keyHash] : [])));
  if (state.ticks % ACCESS_CHECK_TICKS === 0) void checkDashboardAccess(state, subscribers);
  if (state.ticks % LEASE_RENEW_TICKS === 0) void renewStreamLeases();
  if (hashes.size > 0) {
    const refused = await refusedKeys(hashes);
    for (const subscriber of subscribers) if (subscriber.keyHash && refused.has(subscriber.keyHash)) subscriber.end("key_refused");
  }
  if (Date.now() - state.lastHeartbeatAt >= HEARTBEAT_MS) {
    state.lastHeartbeatAt = Date.now();
    for (const subscriber of subscribers) subscriber.heartbeat();
  }
}

type DashboardSubscriber = Subscriber & { session: DashboardSession };

/** Ends the dashboard streams whose session, membership or account no longer allows them. */
async function checkDashboardAccess(state: HubState, subscribers: Subscriber[]) {
  const dashboard = subscribers.filter((subscriber): subscriber is DashboardSubscriber => subscriber.session !== undefined);
  if (dashboard.length === 0 || state.checkingAccess) return;
  state.checkingAccess = true;
  try {
    for (const subscriber of await refusedDashboardHoldings(dashboard)) subscriber.end("access_lost");
  } catch (error) {
    // The database is unreachable: judge on the next check.
    log.warn("dashboard stream access check failed", { error: error instanceof Error ? error.message : String(error) });
  } finally {
    state.checkingAccess = false;
  }
}

/** Ends this process's streams that `match` picks (a sign-out or a removal, at once). */
export function endStreamsWhere(match: (subscriber: Subscriber) => boolean, reason: string): void {
  for (const set of [...hub().byAccount.values()]) for (const subscriber of [...set]) if (match(subscriber)) subscriber.end(reason);
}

async function endAllStreams() {
  const state = hub();
  for (const set of [...state.byAccount.values()]) for (const subscriber of [...set]) subscriber.end("shutdown");
  stopTicker(state);
  await feed.stop();
  state.watermark = null;
}

import { setMaxListeners } from "node:events";
import { Prisma, type PrismaClient } from "../../base/generated/prisma/client";
import { log } from "../../base/log";
import { nextCronTick } from "./cron";
import { catchUpWaits, dispatchEvents, runKey, safeTriggerMatches } from "./dispatch";
import type { DueRun, PreparedRuns, TransactionalEventSink } from "../../base/events/executor-registry";
import { defaultRetryBackoff } from "./durations";
import { checkEventLimits, EVENT_LIMITS, eventIds, normalizeEvent, persistEvents, type EventLimits } from "../../base/events/event-store";
import { followUpEvents } from "./follow-up-events";
import { isOwnerGone, liveOwners, newOwnerId } from "./lease-owners";
import { driveRun, memoizeCheckpointed, RUN_LIMITS, type DriverDeps, type RunLimits } from "./run-driver";
import { RunQueue } from "./run-queue";
import { newRunRecord, RunStore, STARTED_RUNS, type Tx } from "./run-store";
import { queryInTransaction } from "../../base/transaction-sql";
import { Timers } from "./scheduler";
import { clock, type Clock } from "../../base/clock";
import { ServeEndpoint } from "./serve-endpoint";
import { interpretReply, opsOf } from "./step-protocol";
import type { EventPayload, FunctionDefinition, RunRecord } from "./types";

// The embedded executor: learns the app's functions from its serve handler (in-band sync), turns
// events into runs, drives runs with bounded concurrency on millisecond timers, fires cron ticks,
// and after a restart picks up every run the database shows in flight. A re-scan every few
// seconds covers what no timer knows about (events written by other processes, expired leases).

export type EmbeddedExecutorOptions = {
  /** Where the app listens, e.g. http://127.0.0.1:3000. */
  appUrl: string;
  servePath?: string;
  db: PrismaClient;
  /** The key the serve handler verifies requests with. */
  signingKey: string;
  /** Runs driven at once (default 16). */
  concurrency?: number;
  /** The clock for wake-ups, leases and cron ticks (default: server/base/clock.ts's, real unless a test swapped it). */
  clock?: Clock;
  /** Delay before attempt n+1 after n failures, when the SDK gave no Retry-After. */
  retryBackoffMs?: (failedAttempts: number) => number;
  scanIntervalMs?: number;
  leaseMs?: number;
  requestTimeoutMs?: number;
  /** How long stop() lets in-flight Call Requests finish before aborting them. */
  stopGraceMs?: number;
  /** Inngest's limits (steps per run, step output, run state, event size); tests lower them. */
  limits?: Partial<RunLimits & EventLimits>;
};

const HORIZON_MS = 60_000;
const PURGE_EVERY_MS = 10 * 60_000;

export class EmbeddedExecutor implements TransactionalEventSink {
  readonly owner = newOwnerId();
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly store: RunStore;
  private readonly endpoint: ServeEndpoint;
  private readonly queue: RunQueue;
  private readonly runTimers: Timers;
  private readonly cronTimers: Timers;
  private readonly abort = new AbortController();
  private functions = new Map<string, FunctionDefinition>();
  /** The runs being driven now, for the SDK's checkpoints of steps it ran within a Call Request. */
  private readonly driving = new Map<string, RunRecord>();
  /** Runs written under this process's lease, until their first drive (which then needs no claim). */
  private readonly leasedAtStart = new Map<string, { record: RunRecord; until: number }>();
  /**
   * Runs under this process's lease that a scan found and scheduled before their enqueue (between
   * the caller's commit and its enqueue()), with when: that enqueue must not hand over its record
   * as written, which the scan's drive may already have moved past (its steps would run again).
   */
  private readonly scannedBeforeEnqueue = new Map<string, number>();
  private appId: string | null = null;
  private dispatching: Promise<void> | null = null;
  private dispatchAgain = false;
  private scanTimer: NodeJS.Timeout | null = null;
  private scanning = false;
  private lastPurge = 0;
  private syncFailures = 0;
  private nextSyncAt = 0;
  private stopping = false;

  constructor(private readonly options: EmbeddedExecutorOptions) {
    const runClock = options.clock ?? clock;
    this.now = () => runClock.now();
    this.leaseMs = options.leaseMs ?? 30_000;
    this.store = new RunStore(options.db, this.owner, this.leaseMs, this.now);
    this.endpoint = new ServeEndpoint(
      new URL(options.servePath ?? "/api/inngest", options.appUrl),
      options.signingKey,
      options.requestTimeoutMs ?? 15 * 60_000,
    );
    this.queue = new RunQueue(options.concurrency ?? 16, (runId, functionId) => this.drive(runId, functionId), {
      ofFunction: (functionId) => this.functions.get(functionId)?.concurrency ?? null,
      ofKey: (functionId) => this.functions.get(functionId)?.concurrencyKey?.limit ?? null,
    });
    this.runTimers = new Timers(runClock);
    this.cronTimers = new Timers(runClock);
    // Each Call Request in flight listens on this signal until it answers (serve-endpoint.ts removes
    // its listener): up to `concurrency` at once, past Node's default warning threshold of 10.
    setMaxListeners((options.concurrency ?? 16) + 1, this.abort.signal);
  }

  /** Syncs with the serve handler (retried by the scan until it works) and resumes work in flight. */
  async start() {
    liveOwners().add(this.owner);
    this.scanTimer = setInterval(() => void this.scan(), this.options.scanIntervalMs ?? 2000);
    this.scanTimer.unref();
    await this.scan();
  }

  /** Stops timers, lets in-flight requests finish (then aborts them); their runs park as due. */
  async stop() {
    if (this.stopping) return;
    this.stopping = true;
    if (this.scanTimer) clearInterval(this.scanTimer);
    this.runTimers.clearAll();
    this.cronTimers.clearAll();
    this.leasedAtStart.clear();
    this.scannedBeforeEnqueue.clear();
    const grace = setTimeout(() => this.abort.abort(), this.options.stopGraceMs ?? 5000);
    await this.queue.close();
    clearTimeout(grace);
    this.abort.abort();
    await this.dispatching;
    this.endpoint.close();
    liveOwners().delete(this.owner);
  }

  get synced() {
    return this.appId !== null;
  }

  functionIds(): string[] {
    return [...this.functions.keys()];
  }

  /** The event API: persist (a repeated id is accepted once), acknowledge, dispatch. */
  async ingestEvents(appId: string, events: unknown[], seed: string | null): Promise<string[]> {
    const ids = await persistEvents(this.options.db, appId, events, {
      now: this.now(),
      seed,
      limits: { ...EVENT_LIMITS, ...this.options.limits },
    });
    if (appId === this.appId) this.kickDispatch();
    return ids;
  }

  /**
   * Events written inside the caller's transaction, already dispatched, with the runs they start:
   * the runs exist exactly when the caller's rows do, and no dispatch round trip follows the
   * commit. Only for events that start functions; a `step.waitForEvent` on one of these names
   * would not be resumed by it. Null before the first sync (the caller sends the usual way).
   * After the commit, hand the runs to enqueue(); if this process dies first, a scan finds them.
   */
  async startRunsInTransaction(tx: Tx, rawEvents: unknown[]): Promise<DueRun[] | null> {
    return (await this.prepareRunsInTransaction(rawEvents)?.startAlone(tx)) ?? null;
  }

  /**
   * startRunsInTransaction's statement as WITH items for a statement of the caller's (one round
   * trip fewer): `startedIn` names the item that returns the ids of the runs written, which
   * `runs` turns into the runs to enqueue once the caller commits. Null before the first sync.
   */
  prepareRunsInTransaction(rawEvents: unknown[], options: { onlyIfRowIn?: string } = {}): PreparedRuns | null {
    if (!this.appId || this.stopping) return null;
    const appId = this.appId;
    const now = this.now();
    const fallbackIds = eventIds(rawEvents.length, null, now);
    // As the event API would receive them: JSON (an SDK-made event also carries methods).
    const events = rawEvents.map((raw, index) => normalizeEvent(JSON.parse(JSON.stringify(raw)), fallbackIds[index] as string, now));
    checkEventLimits(events, { ...EVENT_LIMITS, ...this.options.limits });
    // The runs every event would start; only those of events not seen before are written.
    const starts = events.flatMap((event) =>
      [...this.functions.values()]
        .filter((fn) => fn.triggers.some((trigger) => safeTriggerMatches(fn, trigger, event)))
        .map((fn) => ({ run: this.store.newRun(appId, fn.id, event), key: runKey(fn, event) })),
    );
    const leaseUntil = now + this.leaseMs;
    const items = this.store.startRunsItems(
      appId,
      events,
      starts.map(({ run }) => run),
      new Date(now),
      new Date(leaseUntil),
      options.onlyIfRowIn,
    );
    const runs = (startedIds: string[]) => {
      const written = new Set(startedIds);
      return starts
        .filter(({ run }) => written.has(run.id as string))
        .map(({ run, key }) => ({
          id: run.id as string,
          functionId: run.functionId,
          key,
          leased: { record: newRunRecord(run, now), until: leaseUntil },
        }));
    };
    return {
      items,
      startedIn: STARTED_RUNS,
      runs,
      startAlone: async (tx) => {
        const rows = await queryInTransaction<{ id: string }>(
          tx,
          Prisma.sql`WITH ${Prisma.join(items, ", ")} SELECT id FROM ${Prisma.raw(STARTED_RUNS)}`,
        );
        return runs(rows.map((row) => row.id));
      },
    };
  }

  /** The async checkpoint of a run being driven here (server/base/events/embedded-client.ts): its steps memoized. */
  checkpointSteps(runId: string, steps: unknown[]): boolean {
    const run = this.driving.get(runId);
    if (!run) return false;
    const ops = opsOf(steps).filter((op) => typeof op.id === "string");
    memoizeCheckpointed(run, ops, this.driverDeps.limits().maxStepOutputBytes);
    return true;
  }

  /** Drives runs made by prepareRunsInTransaction (or startRunsInTransaction), once their transaction has committed. */
  enqueue(runs: DueRun[]) {
    for (const run of runs) {
      const scanned = this.scannedBeforeEnqueue.delete(run.id);
      if (run.leased && !this.stopping && !scanned) this.leasedAtStart.set(run.id, run.leased as { record: RunRecord; until: number });
      this.queue.add(run.id, run.functionId, run.key);
    }
  }

  /** Fires one cron tick (also the test hook): the first process to claim it starts the run. */
  async fireCronTick(functionId: string, tickAt: Date): Promise<string | null> {
    const trigger = this.functions.get(functionId)?.triggers.find((candidate) => "cron" in candidate);
    if (!trigger || !("cron" in trigger) || !this.appId) throw new Error(`${functionId} has no cron trigger`);
    const event: EventPayload = {
      id: `cron:${functionId}:${tickAt.toISOString()}`,
      name: "inngest/scheduled.timer",
      data: { cron: trigger.cron },
      ts: tickAt.getTime(),
    };
    const runId = await this.store.claimCronTick(this.appId, functionId, tickAt, event);
    if (runId) this.queue.add(runId, functionId);
    return runId;
  }

  private async scan() {
    if (this.stopping || this.scanning) return;
    this.scanning = true;
    try {
      if (!this.appId && (Date.now() < this.nextSyncAt || !(await this.sync()))) return;
      this.kickDispatch();
      const now = this.now();
      for (const [runId, at] of this.scannedBeforeEnqueue) if (now - at > this.leaseMs) this.scannedBeforeEnqueue.delete(runId);
      for (const row of await this.store.dueRuns(this.appId as string, now + HORIZON_MS, 500)) {
        if (this.queue.has(row.id)) continue;
        // Ours, not queued: started in a transaction whose enqueue has not come yet (or never will).
        if (row.leaseOwner === this.owner) this.scannedBeforeEnqueue.set(row.id, now);
        this.schedule(row.id, row.functionId, row.wakeAt?.getTime() ?? now);
      }
      if (now - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = now;
        await this.store.purge();
      }
    } catch (error) {
      log.warn("embedded executor scan failed", { error: String(error) });
    } finally {
      this.scanning = false;
    }
  }

  private async sync(): Promise<boolean> {
    try {
      const { appId, functions } = await this.endpoint.sync();
      this.functions = new Map(functions.map((fn) => [fn.id, fn]));
      const releasedLeases = await this.store.releaseLeasesOf(appId, isOwnerGone);
      this.appId = appId;
      this.scheduleCrons();
      log.info("embedded inngest executor ready", { appId, functions: functions.length, releasedLeases });
      return true;
    } catch (error) {
      // Retried by the scan with backoff: the app may still be starting or compiling the route.
      this.syncFailures += 1;
      this.nextSyncAt = Date.now() + Math.min(500 * 2 ** this.syncFailures, 60_000);
      log.warn("embedded inngest executor could not sync yet", {
        error: error instanceof Error ? error.message : String(error),
        attempt: this.syncFailures,
      });
      return false;
    }
  }

  private scheduleCrons() {
    this.cronTimers.clearAll();
    for (const fn of this.functions.values()) {
      for (const trigger of fn.triggers) if ("cron" in trigger) this.scheduleCron(fn.id, trigger.cron, this.now());
    }
  }

  private scheduleCron(functionId: string, cron: string, after: number) {
    let tickAt: number;
    try {
      tickAt = nextCronTick(cron, after);
    } catch (error) {
      log.warn("cron trigger skipped", { functionId, cron, error: String(error) });
      return;
    }
    this.cronTimers.at(`${functionId} ${cron}`, tickAt, () => {
      if (this.stopping) return;
      this.fireCronTick(functionId, new Date(tickAt)).catch((error) => log.error("cron tick failed", { functionId, error: String(error) }));
      // After a pause (a suspended laptop) the missed ticks are not fired in a burst.
      this.scheduleCron(functionId, cron, Math.max(tickAt, this.now()));
    });
  }

  private kickDispatch() {
    if (!this.appId || this.stopping) return;
    if (this.dispatching) {
      this.dispatchAgain = true;
      return;
    }
    const appId = this.appId;
    this.dispatching = (async () => {
      do {
        this.dispatchAgain = false;
        for (const run of await dispatchEvents(this.store, appId, [...this.functions.values()], this.now))
          this.queue.add(run.id, run.functionId, run.key);
      } while (this.dispatchAgain && !this.stopping);
    })()
      .catch((error) => log.error("event dispatch failed", { error: String(error) }))
      .finally(() => {
        this.dispatching = null;
      });
  }

  /** A timer for runs due within the horizon; later ones are found by a later scan. `key`: its concurrency key, where known. */
  private schedule(runId: string, functionId: string, at: number, key = "") {
    if (this.stopping) return;
    if (at <= this.now()) this.queue.add(runId, functionId, key);
    else if (at - this.now() <= HORIZON_MS) this.runTimers.at(runId, at, () => this.queue.add(runId, functionId, key));
  }

  private async drive(runId: string, functionId: string) {
    this.runTimers.clear(runId);
    try {
      const claimedAt = this.now();
      // A run written under our lease moments ago is ours already: its record as written, no
      // claim (unless it waited so long in the queue that the lease is half gone: then claim, which renews it).
      const leased = this.leasedAtStart.get(runId);
      this.leasedAtStart.delete(runId);
      const run = leased && leased.until - claimedAt > this.leaseMs / 2 ? leased.record : await this.store.claim(runId);
      if (!run) {
        // Not due yet (a timer a millisecond early), finished, or another process has it.
        const row = await this.store.peek(runId);
        const wakeAt = row?.wakeAt?.getTime();
        // Not due at the claim, though it may be by now: re-arm it (re-driven at once if so), never leave it to the re-scan.
        if (row && row.status !== "completed" && row.status !== "failed" && wakeAt && wakeAt > claimedAt)
          this.schedule(runId, functionId, wakeAt);
        return;
      }
      const renew = setInterval(() => void this.store.renew(runId).catch(() => undefined), this.leaseMs / 3);
      renew.unref();
      this.driving.set(runId, run);
      try {
        await driveRun(this.driverDeps, run);
      } finally {
        this.driving.delete(runId);
        clearInterval(renew);
      }
    } catch (error) {
      log.error("embedded executor could not drive a run", { runId, error: error instanceof Error ? error.stack : String(error) });
      const retryAt = this.now() + 1000;
      await this.store.release(runId, retryAt).catch(() => undefined);
      this.schedule(runId, functionId, retryAt);
    }
  }

  private readonly driverDeps: DriverDeps = {
    now: () => this.now(),
    limits: () => ({ ...RUN_LIMITS, ...this.options.limits }),
    fn: (functionId) => this.functions.get(functionId),
    call: async (functionId, stepId, body) => {
      try {
        return interpretReply(await this.endpoint.call(functionId, stepId, body, this.abort.signal));
      } catch (error) {
        if (this.abort.signal.aborted) return { kind: "aborted" };
        throw error;
      }
    },
    store: () => this.store,
    backoff: (failedAttempts) => (this.options.retryBackoffMs ?? defaultRetryBackoff)(failedAttempts),
    stopping: () => this.stopping,
    followUps: (run, result) => followUpEvents(this.functions.values(), run, result, this.now()),
    afterPark: async (run) => {
      const key = runKey(this.functions.get(run.functionId), run.events[0]);
      if (run.wakeAt !== null) this.schedule(run.id, run.functionId, run.wakeAt, key);
      if (await catchUpWaits(this.store, run, this.now)) this.queue.add(run.id, run.functionId, key);
    },
    afterFinish: (followUps) => {
      if (followUps.length > 0) this.kickDispatch();
    },
  };
}

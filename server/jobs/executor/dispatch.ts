import { Prisma } from "../../base/generated/prisma/client";
import { log } from "../../base/log";
import { evaluateKey, triggerMatches } from "./event-matcher";
import { resolveWait } from "./run-state";
import { saveStateInTransaction, toRecord, type RunStore, type Tx } from "./run-store";
import type { EventPayload, FunctionDefinition, FunctionTrigger, RunRecord } from "./types";
import type { DueRun } from "../../base/events/executor-registry";

// Events become work: each undispatched event starts a run of every function whose trigger it
// matches and resumes the runs waiting for it, in the transaction that marks it dispatched
// (rows claimed with SKIP LOCKED, so concurrent dispatchers split the work and none repeats it).
// A batch of events costs one insert for the runs it starts and one locking read for the runs
// waiting on any of its event names, however many events it holds.

const BATCH = 50;
const txOptions = { maxWait: 10_000, timeout: 30_000 };

export function safeTriggerMatches(fn: FunctionDefinition, trigger: FunctionTrigger, event: EventPayload) {
  try {
    return triggerMatches(trigger, event);
  } catch (error) {
    log.warn("trigger expression failed", { functionId: fn.id, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

async function resumeIfWaiting(tx: Tx, run: RunRecord, event: EventPayload, receivedAt: number, now: number): Promise<boolean> {
  if (!resolveWait(run, event, receivedAt, now)) return false;
  await saveStateInTransaction(tx, run, new Date(now));
  return true;
}

/** The idle runs waiting for any of these event names, locked in id order (no deadlocks). */
async function lockWaitingRuns(tx: Tx, appId: string, names: string[], now: number): Promise<RunRecord[]> {
  if (names.length === 0) return [];
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM inngest_run
    WHERE app_id = ${appId} AND wait_events && ARRAY[${Prisma.join(names)}]::text[]
      AND status IN ('running', 'sleeping', 'waiting')
      AND (lease_owner IS NULL OR lease_expires_at < ${new Date(now)})
    ORDER BY id FOR UPDATE`;
  if (locked.length === 0) return [];
  const rows = await tx.inngestRun.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
  return rows.map(toRecord);
}

/** A run that is now due: its id, function and concurrency key (the queue serves each in turn). */

/** A run's concurrency key: its function's key expression over the run's (first) event. */
export function runKey(fn: FunctionDefinition | undefined, event: EventPayload | undefined): string {
  return fn?.concurrencyKey && event ? evaluateKey(fn.concurrencyKey.expression, event) : "";
}

type PendingEvent = { id: string; payload: EventPayload; received_at: Date };

/** One batch: every run the events start (one insert) and the waits they resolve (one lock). */
async function dispatchBatch(
  tx: Tx,
  store: RunStore,
  appId: string,
  functions: FunctionDefinition[],
  events: PendingEvent[],
  now: number,
): Promise<DueRun[]> {
  const starts = events.flatMap(({ payload: event }) =>
    functions
      .filter((fn) => fn.triggers.some((trigger) => safeTriggerMatches(fn, trigger, event)))
      .map((fn) => ({ run: store.newRun(appId, fn.id, event), key: runKey(fn, event) })),
  );
  if (starts.length > 0) await tx.inngestRun.createMany({ data: starts.map(({ run }) => run) });
  const due: DueRun[] = starts.map(({ run, key }) => ({ id: run.id as string, functionId: run.functionId, key }));
  const waiting = await lockWaitingRuns(tx, appId, [...new Set(events.map((event) => event.payload.name))], now);
  const resumed = new Set<RunRecord>();
  for (const { payload: event, received_at } of events) {
    for (const run of waiting) if (resolveWait(run, event, received_at.getTime(), now)) resumed.add(run);
  }
  for (const run of resumed) {
    await saveStateInTransaction(tx, run, new Date(now));
    due.push({
      id: run.id,
      functionId: run.functionId,
      key: runKey(
        functions.find((fn) => fn.id === run.functionId),
        run.events[0],
      ),
    });
  }
  return due;
}

/** Dispatches every pending event of the app; returns the runs that are now due. */
export async function dispatchEvents(
  store: RunStore,
  appId: string,
  functions: FunctionDefinition[],
  now: () => number,
): Promise<DueRun[]> {
  const due: DueRun[] = [];
  for (;;) {
    const batch = await store.db.$transaction(async (tx) => {
      const events = await tx.$queryRaw<PendingEvent[]>`
        SELECT id, payload, received_at FROM inngest_event
        WHERE app_id = ${appId} AND dispatched_at IS NULL
        ORDER BY received_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
      if (events.length === 0) return { count: 0, runs: [] };
      const runs = await dispatchBatch(tx, store, appId, functions, events, now());
      await tx.inngestEvent.updateMany({
        where: { appId, id: { in: events.map((event) => event.id) } },
        data: { dispatchedAt: new Date(now()) },
      });
      return { count: events.length, runs };
    }, txOptions);
    due.push(...batch.runs);
    if (batch.count < BATCH) return due;
  }
}

/**
 * After a run parks on a wait: an event that arrived while the run was being driven (the
 * dispatcher skips leased runs) is matched now. True when the run was resumed.
 */
export async function catchUpWaits(store: RunStore, run: RunRecord, now: () => number): Promise<boolean> {
  const waits = run.pending.flatMap((op) => (op.op === "WaitForEvent" ? [op] : []));
  if (waits.length === 0) return false;
  const candidates = await store.db.inngestEvent.findMany({
    where: {
      appId: run.appId,
      name: { in: waits.map((op) => op.event) },
      receivedAt: { gte: new Date(Math.min(...waits.map((op) => op.since))) },
    },
    orderBy: { receivedAt: "asc" },
    take: 100,
  });
  for (const candidate of candidates) {
    const resumed = await store.db.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM inngest_run WHERE id = ${run.id}::uuid AND status IN ('running', 'sleeping', 'waiting')
          AND (lease_owner IS NULL OR lease_expires_at < ${new Date(now())}) FOR UPDATE`;
      if (!locked) return false;
      const current = toRecord(await tx.inngestRun.findUniqueOrThrow({ where: { id: run.id } }));
      return resumeIfWaiting(tx, current, candidate.payload as EventPayload, candidate.receivedAt.getTime(), now());
    }, txOptions);
    if (resumed) return true;
  }
  return false;
}

import { log } from "../../runtime/log";
import { triggerMatches } from "./event-matcher";
import { resolveWait } from "./run-state";
import { stateFields, toRecord, type RunStore, type Tx } from "./run-store";
import type { EventPayload, FunctionDefinition, FunctionTrigger, RunRecord } from "./types";

// Events become work: each undispatched event starts a run of every function whose trigger it
// matches and resumes the runs waiting for it, in the transaction that marks it dispatched
// (rows claimed with SKIP LOCKED, so concurrent dispatchers split the work and none repeats it).

const BATCH = 50;
const txOptions = { maxWait: 10_000, timeout: 30_000 };

function safeTriggerMatches(fn: FunctionDefinition, trigger: FunctionTrigger, event: EventPayload) {
  try {
    return triggerMatches(trigger, event);
  } catch (error) {
    log.warn("trigger expression failed", { functionId: fn.id, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

async function resumeIfWaiting(tx: Tx, run: RunRecord, event: EventPayload, receivedAt: number, now: number): Promise<boolean> {
  if (!resolveWait(run, event, receivedAt, now)) return false;
  await tx.inngestRun.update({ where: { id: run.id }, data: stateFields(run) });
  return true;
}

/** Resumes the idle runs waiting for this event (rows locked in id order: no deadlocks). */
async function resumeWaitingRuns(tx: Tx, appId: string, event: EventPayload, receivedAt: number, now: number): Promise<string[]> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM inngest_run
    WHERE app_id = ${appId} AND wait_events @> ARRAY[${event.name}]::text[]
      AND status IN ('running', 'sleeping', 'waiting')
      AND (lease_owner IS NULL OR lease_expires_at < ${new Date(now)})
    ORDER BY id FOR UPDATE`;
  if (locked.length === 0) return [];
  const rows = await tx.inngestRun.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
  const resumed: string[] = [];
  for (const row of rows) if (await resumeIfWaiting(tx, toRecord(row), event, receivedAt, now)) resumed.push(row.id);
  return resumed;
}

/** Dispatches every pending event of the app; returns the runs that are now due. */
export async function dispatchEvents(store: RunStore, appId: string, functions: FunctionDefinition[], now: () => number): Promise<string[]> {
  const due: string[] = [];
  for (;;) {
    const batch = await store.db.$transaction(async (tx) => {
      const events = await tx.$queryRaw<{ id: string; payload: EventPayload; received_at: Date }[]>`
        SELECT id, payload, received_at FROM inngest_event
        WHERE app_id = ${appId} AND dispatched_at IS NULL
        ORDER BY received_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
      const runIds: string[] = [];
      for (const { payload: event, received_at } of events) {
        const starts = functions.filter((fn) => fn.triggers.some((trigger) => safeTriggerMatches(fn, trigger, event)));
        const runs = starts.map((fn) => store.newRun(appId, fn.id, event));
        if (runs.length > 0) await tx.inngestRun.createMany({ data: runs });
        runIds.push(...runs.map((run) => run.id as string), ...(await resumeWaitingRuns(tx, appId, event, received_at.getTime(), now())));
      }
      if (events.length > 0) {
        await tx.inngestEvent.updateMany({ where: { appId, id: { in: events.map((event) => event.id) } }, data: { dispatchedAt: new Date(now()) } });
      }
      return { count: events.length, runIds };
    }, txOptions);
    due.push(...batch.runIds);
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
    where: { appId: run.appId, name: { in: waits.map((op) => op.event) }, receivedAt: { gte: new Date(Math.min(...waits.map((op) => op.since))) } },
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

import type { Tx } from "../db";
import type { Prisma } from "../generated/prisma/client";

// The executor as the base floor sees it: an event sink this floor declares, that the jobs floor
// implements (server/jobs/executor) and the start floor registers at boot (server/start), so
// `inngest.send()` and sendInTransaction reach the runs' tables without importing the jobs floor.
// The one slot is process-wide: Next's bundled route handlers and the server's own modules are
// separate module graphs, and both must find the executor the server registered.

/**
 * A run to drive. `leased`: a run this process wrote under its own lease (prepareRunsInTransaction),
 * with its record as written (the executor's RunRecord, opaque down here), so its first drive needs no claim.
 */
export type DueRun = { id: string; functionId: string; key: string; leased?: { record: object; until: number } };

/** Where `inngest.send()` and `step.sendEvent()` deliver in embedded mode. */
export type EventSink = {
  ingestEvents(appId: string, events: unknown[], seed: string | null): Promise<string[]>;
  /**
   * The SDK's async checkpoint (POST /v1/checkpoint/{runId}/async): steps it ran and kept going
   * past, for the run this process is driving. False when no run of that id is being driven here.
   */
  checkpointSteps?(runId: string, steps: unknown[]): boolean;
};

/**
 * Events and their runs as WITH items of a caller's statement; `runs` takes the ids `startedIn`
 * returned. `startAlone`: the same items in a statement of their own, in that transaction.
 */
export type PreparedRuns = {
  items: Prisma.Sql[];
  startedIn: string;
  runs(startedIds: string[]): DueRun[];
  startAlone(tx: Tx): Promise<DueRun[]>;
};

/** An executor in this process: it can also start runs inside a caller's transaction. */
export type TransactionalEventSink = EventSink & {
  /** `onlyIfRowIn`: a WITH item of the caller's statement; nothing is written when it returns no row. */
  prepareRunsInTransaction(events: unknown[], options?: { onlyIfRowIn?: string }): PreparedRuns | null;
  enqueue(runs: DueRun[]): void;
};

export function isTransactional(sink: EventSink | undefined): sink is TransactionalEventSink {
  return typeof (sink as Partial<TransactionalEventSink> | undefined)?.prepareRunsInTransaction === "function";
}

type Slot = { sink?: EventSink };
const SLOT = Symbol.for("darkroom.executor-registry");
const slot: Slot = ((globalThis as unknown as Record<symbol, Slot>)[SLOT] ??= {});

/** Called by the start floor once its executor runs (and by suites that drive one). */
export function registerExecutor(sink: EventSink) {
  slot.sink = sink;
}

export function unregisterExecutor(sink: EventSink) {
  if (slot.sink === sink) delete slot.sink;
}

/** The executor the start floor registered in this process; none in a CLI run or with Inngest Cloud. */
export function registeredExecutor(): EventSink | undefined {
  return slot.sink;
}

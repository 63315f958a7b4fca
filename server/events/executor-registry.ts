import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Tx } from "../db";
import type { Prisma } from "../generated/prisma/client";

// Route handlers run in Next's bundled module graph, our HTTP server and the executor in tsx's:
// module-level singletons are not shared between them, globalThis is. The executor registers
// itself here; the Inngest client's fetch finds it here.

/** A run ready to be driven: its id, its function and its concurrency key. */
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
export type PreparedRuns = { items: Prisma.Sql[]; startedIn: string; runs(startedIds: string[]): DueRun[]; startAlone(tx: Tx): Promise<DueRun[]> };

/** An executor in this process: it can also start runs inside a caller's transaction. */
export type TransactionalEventSink = EventSink & {
  /** `onlyIfRowIn`: a WITH item of the caller's statement; nothing is written when it returns no row. */
  prepareRunsInTransaction(events: unknown[], options?: { onlyIfRowIn?: string }): PreparedRuns | null;
  enqueue(runs: DueRun[]): void;
};

export function isTransactional(sink: EventSink | undefined): sink is TransactionalEventSink {
  return typeof (sink as Partial<TransactionalEventSink> | undefined)?.prepareRunsInTransaction === "function";
}

type Registry = { __darkroomExecutor?: EventSink; __darkroomExecutorOwners?: Set<string> };
const registry = globalThis as unknown as Registry;

export function registerExecutor(sink: EventSink) {
  registry.__darkroomExecutor = sink;
}

export function unregisterExecutor(sink: EventSink) {
  if (registry.__darkroomExecutor === sink) delete registry.__darkroomExecutor;
}

export function registeredExecutor(): EventSink | undefined {
  return registry.__darkroomExecutor;
}

/** Executors alive in this process, by lease owner id. */
export function liveOwners(): Set<string> {
  registry.__darkroomExecutorOwners ??= new Set();
  return registry.__darkroomExecutorOwners;
}

/** A lease owner id: `<host>:<pid>:<random>`. */
export function newOwnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** An owner on this host whose process has exited, or a stopped executor of this process: its leases can be taken at once. */
export function isOwnerGone(owner: string): boolean {
  const [host, pid] = owner.split(":");
  if (host !== os.hostname() || liveOwners().has(owner)) return false;
  if (Number(pid) === process.pid) return true;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

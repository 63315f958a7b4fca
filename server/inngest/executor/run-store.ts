import { randomUUID } from "node:crypto";
import type { InngestRun, Prisma, PrismaClient } from "../../generated/prisma/client";
import { EVENT_RETENTION_MS } from "./event-store";
import { waitEventNames } from "./run-state";
import type { EventPayload, PendingOp, RunRecord, RunStatus, SerializedError, StepMemo } from "./types";

// Runs in PostgreSQL. A process drives a run only while it holds the run's lease (renewed while
// a request is in flight, released whenever the run parks), so two processes never drive the
// same run. Every state change is saved before the next Call Request.

export const ACTIVE_STATUSES: RunStatus[] = ["running", "sleeping", "waiting"];
const FINISHED_RETENTION_MS = 7 * 86_400_000;

export type Tx = Prisma.TransactionClient;
export type RunResult = { status: "completed"; output: unknown } | { status: "failed"; error: SerializedError };

export function toRecord(row: InngestRun): RunRecord {
  return {
    id: row.id,
    appId: row.appId,
    functionId: row.functionId,
    eventId: row.eventId,
    events: row.events as EventPayload[],
    status: row.status,
    steps: row.steps as Record<string, StepMemo>,
    stack: row.stack ?? [],
    attempts: row.attempts as Record<string, number>,
    nextStepId: row.nextStepId,
    disableImmediateExecution: row.disableImmediateExecution,
    pending: row.pending as PendingOp[],
    wakeAt: row.wakeAt?.getTime() ?? null,
  };
}

export function stateFields(run: RunRecord) {
  return {
    status: run.status,
    steps: run.steps as Prisma.InputJsonValue,
    stack: run.stack,
    attempts: run.attempts as Prisma.InputJsonValue,
    nextStepId: run.nextStepId,
    disableImmediateExecution: run.disableImmediateExecution,
    pending: run.pending as Prisma.InputJsonValue,
    waitEvents: waitEventNames(run.pending),
    wakeAt: run.wakeAt === null ? null : new Date(run.wakeAt),
  };
}

export class RunStore {
  constructor(
    readonly db: PrismaClient,
    readonly owner: string,
    private readonly leaseMs: number,
    private readonly now: () => number,
  ) {}

  newRun(appId: string, functionId: string, event: EventPayload): Prisma.InngestRunCreateManyInput {
    return { id: randomUUID(), appId, functionId, eventId: event.id, events: [event] as Prisma.InputJsonValue, status: "running", wakeAt: new Date(this.now()) };
  }

  private unleased(now: Date): Prisma.InngestRunWhereInput {
    return { OR: [{ leaseOwner: null }, { leaseOwner: this.owner }, { leaseExpiresAt: { lt: now } }] };
  }

  /** Takes the lease of a run that is due; null when it is not due, finished or driven elsewhere. */
  async claim(runId: string): Promise<RunRecord | null> {
    const now = new Date(this.now());
    const [row] = await this.db.inngestRun.updateManyAndReturn({
      where: { id: runId, status: { in: ACTIVE_STATUSES }, wakeAt: { lte: now }, ...this.unleased(now) },
      data: { leaseOwner: this.owner, leaseExpiresAt: new Date(now.getTime() + this.leaseMs) },
    });
    return row ? toRecord(row) : null;
  }

  async peek(runId: string) {
    return this.db.inngestRun.findUnique({ where: { id: runId }, select: { status: true, wakeAt: true } });
  }

  async renew(runId: string) {
    await this.db.inngestRun.updateMany({ where: { id: runId, leaseOwner: this.owner }, data: { leaseExpiresAt: new Date(this.now() + this.leaseMs) } });
  }

  /** Saves the state while keeping the lease; false when the lease was lost. */
  async save(run: RunRecord): Promise<boolean> {
    const { count } = await this.db.inngestRun.updateMany({
      where: { id: run.id, leaseOwner: this.owner },
      data: { ...stateFields(run), leaseExpiresAt: new Date(this.now() + this.leaseMs) },
    });
    return count === 1;
  }

  /** Saves the state and lets go of the run (it rests until wake_at or a matching event). */
  async park(run: RunRecord): Promise<boolean> {
    const { count } = await this.db.inngestRun.updateMany({
      where: { id: run.id, leaseOwner: this.owner },
      data: { ...stateFields(run), leaseOwner: null, leaseExpiresAt: null },
    });
    return count === 1;
  }

  /** Lets go of a run whose drive broke off, to be tried again at `wakeAt`. */
  async release(runId: string, wakeAt: number) {
    await this.db.inngestRun.updateMany({ where: { id: runId, leaseOwner: this.owner }, data: { leaseOwner: null, leaseExpiresAt: null, wakeAt: new Date(wakeAt) } });
  }

  /** Ends a run; its follow-up events (function.failed, …) are written in the same transaction. */
  async finish(run: RunRecord, result: RunResult, followUps: EventPayload[]): Promise<boolean> {
    const now = this.now();
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.inngestRun.updateMany({
        where: { id: run.id, leaseOwner: this.owner },
        data: {
          ...stateFields({ ...run, pending: [], wakeAt: null, status: result.status }),
          output: result.status === "completed" ? ((result.output ?? null) as Prisma.InputJsonValue) : undefined,
          error: result.status === "failed" ? (result.error as Prisma.InputJsonValue) : undefined,
          finishedAt: new Date(now),
          leaseOwner: null,
          leaseExpiresAt: null,
        },
      });
      if (count === 1 && followUps.length > 0) {
        await tx.inngestEvent.createMany({
          data: followUps.map((event) => ({ appId: run.appId, id: event.id, name: event.name, payload: event as object, receivedAt: new Date(now) })),
          skipDuplicates: true,
        });
      }
      return count === 1;
    });
  }

  /** Claims a cron tick (one process wins) and creates its run; null when already claimed. */
  async claimCronTick(appId: string, functionId: string, tickAt: Date, event: EventPayload): Promise<string | null> {
    return this.db.$transaction(async (tx) => {
      const run = this.newRun(appId, functionId, event);
      const { count } = await tx.inngestCronTick.createMany({ data: [{ functionId, tickAt, runId: run.id }], skipDuplicates: true });
      if (count === 0) return null;
      await tx.inngestRun.create({ data: run });
      return run.id;
    });
  }

  /** Active runs due before `until` that no other process is driving, earliest first. */
  async dueRuns(appId: string, until: number, limit: number) {
    const now = new Date(this.now());
    return this.db.inngestRun.findMany({
      where: { appId, status: { in: ACTIVE_STATUSES }, wakeAt: { lte: new Date(until) }, ...this.unleased(now) },
      select: { id: true, functionId: true, wakeAt: true },
      orderBy: { wakeAt: "asc" },
      take: limit,
    });
  }

  /** Frees the leases of owners known to be gone (a crashed process, a stopped executor). */
  async releaseLeasesOf(appId: string, isGone: (owner: string) => boolean): Promise<number> {
    const owners = await this.db.inngestRun.findMany({ where: { appId, leaseOwner: { not: null } }, select: { leaseOwner: true }, distinct: ["leaseOwner"] });
    const gone = owners.map((row) => row.leaseOwner as string).filter(isGone);
    if (gone.length === 0) return 0;
    const { count } = await this.db.inngestRun.updateMany({ where: { appId, leaseOwner: { in: gone } }, data: { leaseOwner: null, leaseExpiresAt: null } });
    return count;
  }

  /** Drops dispatched events past the idempotency window and old finished runs and ticks. */
  async purge() {
    const now = this.now();
    await this.db.inngestEvent.deleteMany({ where: { dispatchedAt: { not: null }, receivedAt: { lt: new Date(now - EVENT_RETENTION_MS) } } });
    await this.db.inngestRun.deleteMany({ where: { status: { in: ["completed", "failed"] }, finishedAt: { lt: new Date(now - FINISHED_RETENTION_MS) } } });
    await this.db.inngestCronTick.deleteMany({ where: { tickAt: { lt: new Date(now - FINISHED_RETENTION_MS) } } });
  }
}

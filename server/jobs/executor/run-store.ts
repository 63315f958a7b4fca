import { randomUUID } from "node:crypto";
import { Prisma, type InngestRun, type PrismaClient } from "../../base/generated/prisma/client";
import { sqlPool } from "../../base/db";
import { EVENT_RETENTION_MS } from "../../base/events/event-store";
import { waitEventNames } from "./run-state";
import type { EventPayload, PendingOp, RunRecord, RunStatus, SerializedError, StepMemo } from "./types";

// Runs in PostgreSQL. A process drives a run only while it holds the run's lease (renewed while
// a request is in flight, released whenever the run parks), so two processes never drive the
// same run. A state change is saved before the next Call Request but one (run-driver.ts).

export const ACTIVE_STATUSES: RunStatus[] = ["running", "sleeping", "waiting"];
/** The WITH item of startRunsItems that returns the ids of the runs written. */
export const STARTED_RUNS = "run_starts";
const FINISHED_RETENTION_MS = 7 * 86_400_000;

export type Tx = Prisma.TransactionClient;
export type RunResult = { status: "completed"; output: unknown } | { status: "failed"; error: SerializedError };

/** The columns a run's record is made from, named as Prisma names them. */
type RunRow = Pick<
  InngestRun,
  | "id"
  | "appId"
  | "functionId"
  | "eventId"
  | "events"
  | "status"
  | "steps"
  | "stack"
  | "attempts"
  | "nextStepId"
  | "disableImmediateExecution"
  | "pending"
  | "wakeAt"
>;

const RUN_COLUMNS = `id, app_id AS "appId", function_id AS "functionId", event_id AS "eventId", events, status, steps, stack, attempts,
  next_step_id AS "nextStepId", disable_immediate_execution AS "disableImmediateExecution", pending, wake_at AS "wakeAt"`;

// The statements a run makes at every step (claim, save, park, finish) go straight to the pool as
// SQL: through Prisma's query compiler each cost more CPU than the database spends on it. JSON
// columns are sent as JSON text (pg would send a JS array as a PostgreSQL array).

/** The SET list for `stateValues(run, now)`, its ten parameters numbered from $`from`. */
function stateSet(from: number) {
  const $ = (index: number) => `$${from + index}`;
  return `status = ${$(0)}::"InngestRunStatus", steps = ${$(1)}::jsonb, stack = ${$(2)}::text[], attempts = ${$(3)}::jsonb, next_step_id = ${$(4)},
  disable_immediate_execution = ${$(5)}, pending = ${$(6)}::jsonb, wait_events = ${$(7)}::text[], wake_at = ${$(8)}, updated_at = ${$(9)}`;
}
/** After the run's id ($1) and the lease owner ($2). */
const STATE_SET = stateSet(3);
/** After the run's id alone. */
const STATE_SET_BY_ID = stateSet(2);

function stateValues(run: RunRecord, now: Date) {
  return [
    run.status,
    JSON.stringify(run.steps),
    run.stack,
    JSON.stringify(run.attempts),
    run.nextStepId,
    run.disableImmediateExecution,
    JSON.stringify(run.pending),
    waitEventNames(run.pending),
    run.wakeAt === null ? null : new Date(run.wakeAt),
    now,
  ];
}

export function toRecord(row: RunRow): RunRecord {
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

/** The record of a run as startRunsItems writes it (due at `wakeAt`, the columns' defaults for the rest), as a claim would read it back. */
export function newRunRecord(run: Prisma.InngestRunCreateManyInput, wakeAt: number): RunRecord {
  return {
    id: run.id as string,
    appId: run.appId,
    functionId: run.functionId,
    eventId: run.eventId,
    events: run.events as EventPayload[],
    status: "running",
    steps: {},
    stack: [],
    attempts: {},
    nextStepId: null,
    disableImmediateExecution: false,
    pending: [],
    wakeAt,
  };
}

/**
 * Inside the caller's transaction (the dispatcher resuming a run that waited for an event): the
 * run's state, as `save` writes it, on a run whose lease is free or expired (the caller locked the row).
 */
export async function saveStateInTransaction(tx: Tx, run: RunRecord, now: Date): Promise<void> {
  await tx.$executeRawUnsafe(`UPDATE inngest_run SET ${STATE_SET_BY_ID} WHERE id = $1`, run.id, ...stateValues(run, now));
}

export class RunStore {
  constructor(
    readonly db: PrismaClient,
    readonly owner: string,
    private readonly leaseMs: number,
    private readonly now: () => number,
  ) {}

  newRun(appId: string, functionId: string, event: EventPayload): Prisma.InngestRunCreateManyInput {
    return {
      id: randomUUID(),
      appId,
      functionId,
      eventId: event.id,
      events: [event] as Prisma.InputJsonValue,
      status: "running",
      wakeAt: new Date(this.now()),
    };
  }

  private unleased(now: Date): Prisma.InngestRunWhereInput {
    return { OR: [{ leaseOwner: null }, { leaseOwner: this.owner }, { leaseExpiresAt: { lt: now } }] };
  }

  /** Takes the lease of a run that is due; null when it is not due, finished or driven elsewhere. */
  async claim(runId: string): Promise<RunRecord | null> {
    const now = new Date(this.now());
    const { rows } = await sqlPool().query<RunRow>({
      name: "executor-claim-run",
      text: `UPDATE inngest_run SET lease_owner = $2, lease_expires_at = $4, updated_at = $3
              WHERE id = $1 AND status IN ('running', 'sleeping', 'waiting') AND wake_at <= $3
                AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at < $3)
              RETURNING ${RUN_COLUMNS}`,
      values: [runId, this.owner, now, new Date(now.getTime() + this.leaseMs)],
    });
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async peek(runId: string) {
    return this.db.inngestRun.findUnique({ where: { id: runId }, select: { status: true, wakeAt: true } });
  }

  async renew(runId: string) {
    await this.db.inngestRun.updateMany({
      where: { id: runId, leaseOwner: this.owner },
      data: { leaseExpiresAt: new Date(this.now() + this.leaseMs) },
    });
  }

  /** Saves the state while keeping the lease; false when the lease was lost. */
  async save(run: RunRecord): Promise<boolean> {
    const now = new Date(this.now());
    const { rowCount } = await sqlPool().query({
      name: "executor-save-run",
      text: `UPDATE inngest_run SET ${STATE_SET}, lease_expires_at = $13 WHERE id = $1 AND lease_owner = $2`,
      values: [run.id, this.owner, ...stateValues(run, now), new Date(now.getTime() + this.leaseMs)],
    });
    return rowCount === 1;
  }

  /** Saves the state and lets go of the run (it rests until wake_at or a matching event). */
  async park(run: RunRecord): Promise<boolean> {
    const { rowCount } = await sqlPool().query({
      name: "executor-park-run",
      text: `UPDATE inngest_run SET ${STATE_SET}, lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2`,
      values: [run.id, this.owner, ...stateValues(run, new Date(this.now()))],
    });
    return rowCount === 1;
  }

  /** Lets go of a run whose drive broke off, to be tried again at `wakeAt`. */
  async release(runId: string, wakeAt: number) {
    await this.db.inngestRun.updateMany({
      where: { id: runId, leaseOwner: this.owner },
      data: { leaseOwner: null, leaseExpiresAt: null, wakeAt: new Date(wakeAt) },
    });
  }

  /** Ends a run; its follow-up events (function.failed, …) are written in the same transaction. */
  async finish(run: RunRecord, result: RunResult, followUps: EventPayload[]): Promise<boolean> {
    const now = new Date(this.now());
    const ended = {
      text: `UPDATE inngest_run SET ${STATE_SET}, output = COALESCE($13::jsonb, output), error = COALESCE($14::jsonb, error),
               finished_at = $12, lease_owner = NULL, lease_expires_at = NULL
              WHERE id = $1 AND lease_owner = $2`,
      values: [
        run.id,
        this.owner,
        ...stateValues({ ...run, pending: [], wakeAt: null, status: result.status }, now),
        result.status === "completed" ? JSON.stringify(result.output ?? null) : null,
        result.status === "failed" ? JSON.stringify(result.error) : null,
      ],
    };
    if (followUps.length === 0) return (await sqlPool().query({ name: "executor-finish-run", ...ended })).rowCount === 1;
    return this.db.$transaction(async (tx) => {
      const count = await tx.$executeRawUnsafe(ended.text, ...ended.values);
      if (count === 1) {
        await tx.inngestEvent.createMany({
          data: followUps.map((event) => ({ appId: run.appId, id: event.id, name: event.name, payload: event as object, receivedAt: now })),
          skipDuplicates: true,
        });
      }
      return count === 1;
    });
  }

  /**
   * For a statement of the caller's transaction: the events (a repeated id starts nothing, as
   * Inngest's idempotency has it) and, for each event that is new, its runs, as two WITH items,
   * `run_events` then `run_starts` (STARTED_RUNS), which returns the ids of the runs written. The
   * runs are written under this process's lease until `leaseUntil`: it drives them once the caller
   * commits, without claiming them first (the lease a claim would take is there from the start;
   * another process takes one over only once the lease expires, or at once when this process is gone).
   */
  startRunsItems(
    appId: string,
    events: EventPayload[],
    runs: Prisma.InngestRunCreateManyInput[],
    now: Date,
    leaseUntil: Date,
    onlyIfRowIn?: string,
  ): Prisma.Sql[] {
    // The caller's statement may write its own row conditionally: then so are the events (and so their runs).
    const written = onlyIfRowIn ? Prisma.sql`WHERE EXISTS (SELECT 1 FROM ${Prisma.raw(onlyIfRowIn)})` : Prisma.empty;
    const eventRows = JSON.stringify(events.map((event) => ({ id: event.id, name: event.name, payload: event })));
    const runRows = JSON.stringify(
      runs.map((run) => ({ id: run.id, function_id: run.functionId, event_id: run.eventId, events: run.events })),
    );
    return [
      Prisma.sql`run_events AS (
         INSERT INTO inngest_event (app_id, id, name, payload, received_at, dispatched_at)
         SELECT ${appId}, e.id, e.name, e.payload, ${now}::timestamptz, ${now}::timestamptz FROM jsonb_to_recordset(${eventRows}::jsonb) AS e(id text, name text, payload jsonb)
         ${written}
         ON CONFLICT DO NOTHING
         RETURNING id)`,
      Prisma.sql`${Prisma.raw(STARTED_RUNS)} AS (
         INSERT INTO inngest_run (id, app_id, function_id, event_id, events, status, wake_at, created_at, updated_at, lease_owner, lease_expires_at)
         SELECT r.id, ${appId}, r.function_id, r.event_id, r.events, 'running', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz, ${this.owner}, ${leaseUntil}::timestamptz
           FROM jsonb_to_recordset(${runRows}::jsonb) AS r(id uuid, function_id text, event_id text, events jsonb)
          WHERE r.event_id IN (SELECT id FROM run_events)
         RETURNING id::text AS id)`,
    ];
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
      select: { id: true, functionId: true, wakeAt: true, leaseOwner: true },
      orderBy: { wakeAt: "asc" },
      take: limit,
    });
  }

  /** Frees the leases of owners known to be gone (a crashed process, a stopped executor). */
  async releaseLeasesOf(appId: string, isGone: (owner: string) => boolean): Promise<number> {
    const owners = await this.db.inngestRun.findMany({
      where: { appId, leaseOwner: { not: null } },
      select: { leaseOwner: true },
      distinct: ["leaseOwner"],
    });
    const gone = owners.map((row) => row.leaseOwner as string).filter(isGone);
    if (gone.length === 0) return 0;
    const { count } = await this.db.inngestRun.updateMany({
      where: { appId, leaseOwner: { in: gone } },
      data: { leaseOwner: null, leaseExpiresAt: null },
    });
    return count;
  }

  /** Drops dispatched events past the idempotency window and old finished runs and ticks. */
  async purge() {
    const now = this.now();
    await this.db.inngestEvent.deleteMany({
      where: { dispatchedAt: { not: null }, receivedAt: { lt: new Date(now - EVENT_RETENTION_MS) } },
    });
    await this.db.inngestRun.deleteMany({
      where: { status: { in: ["completed", "failed"] }, finishedAt: { lt: new Date(now - FINISHED_RETENTION_MS) } },
    });
    await this.db.inngestCronTick.deleteMany({ where: { tickAt: { lt: new Date(now - FINISHED_RETENTION_MS) } } });
  }
}

import "server-only";
import type { Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { log } from "../log";
import { afterCommit } from "../transaction";
import { inngest } from "./client";
import { isTransactional, registeredExecutor, type DueRun } from "./executor-registry";

// An event that starts work for rows the caller's transaction writes. With the embedded executor
// in this process, the event and the runs it starts are written in that same transaction (no
// send and no dispatch after the commit: the runs are queued at once). Otherwise (Inngest Cloud,
// a CLI run, a suite's recording sink) the event is sent after the commit, as before; its sweep
// re-sends what a crash between commit and send lost.

type Payload = { id?: string; name: string; data: Record<string, unknown>; validate?: () => Promise<void> };

export async function sendInTransaction(tx: Tx, label: string, payload: Payload | Payload[]): Promise<void> {
  const events = Array.isArray(payload) ? payload : [payload];
  if (events.length === 0) return;
  await (await prepareSendInTransaction(tx, label, events)).sendAlone();
}

/**
 * sendInTransaction in two halves, for a caller whose own statement may carry the send (the
 * create's reservation: server/generations/reserve-and-record.ts), one round trip fewer. With the
 * embedded executor ready, `carried` holds WITH items and a select-list entry, `started_runs`
 * (the ids of the runs written): after a statement that carried them, hand that value to `sent`
 * (the runs are queued once the transaction commits). Otherwise, or when the statement did not
 * carry them, `sendAlone()` sends as sendInTransaction does. Events are checked once, here.
 */
export async function prepareSendInTransaction(tx: Tx, label: string, events: Payload[]): Promise<PreparedSend> {
  const carrying = await prepareCarried(events);
  if (!carrying) {
    const sendAfterCommit = async () => afterCommit(tx, label, () => inngest.send(events as Parameters<typeof inngest.send>[0]));
    return { carried: null, sent: sendAfterCommit, sendAlone: sendAfterCommit };
  }
  const { executor, runs, carried } = carrying;
  const queue = (due: DueRun[]) => afterCommit(tx, label, async () => executor.enqueue(due));
  return { carried, sent: async (startedRuns) => queue(runs.runs(startedRuns)), sendAlone: async () => queue(await runs.startAlone(tx)) };
}

/**
 * The events checked (an event made by eventType().create() against its schema, as send() would),
 * and with the embedded executor ready, their event and run rows as WITH items and the select-list
 * entry `started_runs`; null otherwise.
 */
async function prepareCarried(events: Payload[], options: { onlyIfRowIn?: string } = {}) {
  for (const event of events) await event.validate?.();
  const executor = registeredExecutor();
  const runs = isTransactional(executor) ? executor.prepareRunsInTransaction(events, options) : null;
  if (!runs || !isTransactional(executor)) return null;
  const carried = {
    items: runs.items,
    column: Prisma.sql`(SELECT coalesce(array_agg(id), '{}') FROM ${Prisma.raw(runs.startedIn)}) AS started_runs`,
  };
  return { executor, runs, carried };
}

export type PreparedSend = {
  /** What a statement of the caller's may carry; null when nothing can (send with `sendAlone`). */
  carried: { items: Prisma.Sql[]; column: Prisma.Sql } | null;
  sent(startedRuns: string[]): Promise<void>;
  sendAlone(): Promise<void>;
};

/**
 * prepareSendInTransaction for a caller's autocommit statement (the create in one statement:
 * server/generations/record-at-once.ts): the same `carried` items, written only when the WITH item
 * `onlyIfRowIn` returns a row (the statement's own insert), and `committed`, to call only
 * once that statement has committed what it carried, with its `started_runs` (the runs are queued).
 * Without the embedded executor `carried` is null and `committed` sends the events, as an
 * after-commit job would: a failure is logged, and the event's sweep sends it again.
 */
export async function prepareSendAtOnce(
  label: string,
  events: Payload[],
  onlyIfRowIn: string,
): Promise<{ carried: PreparedSend["carried"]; committed(startedRuns: string[]): Promise<void> }> {
  const carrying = await prepareCarried(events, { onlyIfRowIn });
  if (!carrying) {
    const send = async () => {
      await inngest.send(events as Parameters<typeof inngest.send>[0]).catch((error: unknown) => {
        log.warn("after-commit job failed", { job: label, error: error instanceof Error ? error.message : String(error) });
      });
    };
    return { carried: null, committed: send };
  }
  const { executor, runs, carried } = carrying;
  return { carried, committed: async (started) => executor.enqueue(runs.runs(started)) };
}

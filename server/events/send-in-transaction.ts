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
  // An event made by eventType().create() is checked against its schema, as send() would.
  for (const event of events) await event.validate?.();
  const executor = registeredExecutor();
  const prepared = isTransactional(executor) ? executor.prepareRunsInTransaction(events) : null;
  if (!prepared || !isTransactional(executor)) {
    const sendAfterCommit = async () => afterCommit(tx, label, () => inngest.send(events as Parameters<typeof inngest.send>[0]));
    return { carried: null, sent: sendAfterCommit, sendAlone: sendAfterCommit };
  }
  const queue = (runs: DueRun[]) => afterCommit(tx, label, async () => executor.enqueue(runs));
  return {
    carried: { items: prepared.items, column: Prisma.sql`(SELECT coalesce(array_agg(id), '{}') FROM ${Prisma.raw(prepared.startedIn)}) AS started_runs` },
    sent: async (startedRuns) => queue(prepared.runs(startedRuns)),
    sendAlone: async () => queue(await prepared.startAlone(tx)),
  };
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
export async function prepareSendAtOnce(label: string, events: Payload[], onlyIfRowIn: string): Promise<{ carried: PreparedSend["carried"]; committed(startedRuns: string[]): Promise<void> }> {
  for (const event of events) await event.validate?.();
  const executor = registeredExecutor();
  const prepared = isTransactional(executor) ? executor.prepareRunsInTransaction(events, { onlyIfRowIn }) : null;
  if (!prepared || !isTransactional(executor)) {
    const send = async () => {
      await inngest.send(events as Parameters<typeof inngest.send>[0]).catch((error: unknown) => {
        log.warn("after-commit job failed", { job: label, error: error instanceof Error ? error.message : String(error) });
      });
    };
    return { carried: null, committed: send };
  }
  return {
    carried: { items: prepared.items, column: Prisma.sql`(SELECT coalesce(array_agg(id), '{}') FROM ${Prisma.raw(prepared.startedIn)}) AS started_runs` },
    committed: async (started) => executor.enqueue(prepared.runs(started)),
  };
}

import "server-only";
import type { Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { afterCommit } from "../transaction";
import { inngest } from "./client";
import { isTransactional, registeredExecutor } from "./executor-registry";

// An event that starts work for rows the caller's transaction writes. With the embedded executor
// in this process, the event and the runs it starts are written in that same transaction (no
// send and no dispatch after the commit: the runs are queued at once). Otherwise (Inngest Cloud,
// a CLI run, a suite's recording sink) the event is sent after the commit, as before; its sweep
// re-sends what a crash between commit and send lost.

type Payload = { id?: string; name: string; data: Record<string, unknown>; validate?: () => Promise<void> };

export async function sendInTransaction(tx: Tx, label: string, payload: Payload | Payload[]): Promise<void> {
  const events = Array.isArray(payload) ? payload : [payload];
  if (events.length === 0) return;
  await validated(events);
  const executor = registeredExecutor();
  const runs = isTransactional(executor) ? await executor.startRunsInTransaction(tx, events) : null;
  if (runs && isTransactional(executor)) {
    afterCommit(tx, label, async () => executor.enqueue(runs));
    return;
  }
  afterCommit(tx, label, () => inngest.send(events as Parameters<typeof inngest.send>[0]));
}

/**
 * The embedded executor's part of sendInTransaction as WITH items for a statement the caller sends
 * anyway (the create's reservation: server/generations/reserve-and-record.ts), one round trip
 * fewer. `column` is a select-list entry, `started_runs`, the ids of the runs written; hand its
 * value to `sent` (it queues them once the transaction commits). Null without an embedded
 * executor ready to write runs: then sendInTransaction, as before.
 */
export async function prepareSendInTransaction(tx: Tx, label: string, payload: Payload[]): Promise<PreparedSend | null> {
  await validated(payload);
  const executor = registeredExecutor();
  const prepared = isTransactional(executor) ? executor.prepareRunsInTransaction(payload) : null;
  if (!prepared || !isTransactional(executor)) return null;
  return {
    items: prepared.items,
    column: Prisma.sql`(SELECT coalesce(array_agg(id), '{}') FROM ${Prisma.raw(prepared.startedIn)}) AS started_runs`,
    sent: (startedRuns) => {
      const runs = prepared.runs(startedRuns);
      afterCommit(tx, label, async () => executor.enqueue(runs));
    },
  };
}

export type PreparedSend = { items: Prisma.Sql[]; column: Prisma.Sql; sent(startedRuns: string[]): void };

/** An event made by eventType().create() is checked against its schema, as send() would. */
async function validated(events: Payload[]) {
  for (const event of events) await event.validate?.();
}

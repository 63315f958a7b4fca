import "server-only";
import type { Tx } from "../db";
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
  // An event made by eventType().create() is checked against its schema, as send() would.
  for (const event of events) await event.validate?.();
  const executor = registeredExecutor();
  const runs = isTransactional(executor) ? await executor.startRunsInTransaction(tx, events) : null;
  if (runs && isTransactional(executor)) {
    afterCommit(tx, label, async () => executor.enqueue(runs));
    return;
  }
  afterCommit(tx, label, () => inngest.send(events as Parameters<typeof inngest.send>[0]));
}

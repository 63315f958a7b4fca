import "server-only";
import type { Tx } from "../base/db";
import { inngest } from "../base/events/client";
import { generationFinished } from "../base/events/definitions";
import { log } from "../base/log";
import { sendInTransaction } from "../base/events/send-in-transaction";
import { afterCommit, inTransaction, withSavepoint } from "../base/transaction";
import { wakeWaiters } from "./finish-waiters";
import { emitGenerationEvent, prepareGenerationEvent, terminalEventFor } from "./emit-generation-event";

type TerminalStatus = "succeeded" | "failed" | "canceled";

const finishedEvent = (generationId: string, accountId: string, status: TerminalStatus) =>
  generationFinished.create({ generationId, accountId, status }, { id: `generation-finished:${generationId}` });

/**
 * In the terminal transition's own transaction: the terminal webhook deliveries (and, with the
 * embedded executor, their runs) commit with the new status, so no crash between the two can lose
 * them and no webhook-fan-out run is needed. A problem queueing them never undoes the transition:
 * their writes roll back to their savepoint and the generation/finished event (sendInTransaction:
 * with the transition, or after it commits) has webhook-fan-out queue them instead.
 */
export async function queueGenerationFinished(
  tx: Tx,
  generationId: string,
  accountId: string,
  status: TerminalStatus,
  known: { subscribed?: boolean } = {},
) {
  // At the commit, before the webhook runs start (after-commit jobs run in order): the creates
  // waiting in this process (`Prefer: wait`) read their record at once, without waiting for the
  // NOTIFY round trip, which still reaches the other instances.
  afterCommit(tx, "wake finish waiters", async () => wakeWaiters(generationId));
  const kind = terminalEventFor(status);
  if (!kind) return;
  // The caller's locking read already said no endpoint of the account takes the event (the same
  // test, in the same transaction): nothing to read or queue.
  if (known.subscribed === false) return;
  // The read first, a plain statement of the transition: most accounts have no endpoint for the
  // event, and then there is nothing to write and no savepoint to take (two round trips fewer).
  const queue = await prepareGenerationEvent(tx, generationId, kind);
  if (!queue) return;
  try {
    await withSavepoint(tx, "terminal_webhooks", queue);
  } catch (error) {
    log.warn("terminal webhook not queued with the transition; webhook-fan-out will", {
      generationId,
      error: error instanceof Error ? error.message : String(error),
    });
    await sendInTransaction(tx, "generation/finished", finishedEvent(generationId, accountId, status));
  }
}

/**
 * For a transition whose deliveries were lost (resend-lost-finished-events): queue them now, then
 * send the terminal event, whose webhook-fan-out run queues the same deliveries again under the
 * same event key (one per endpoint), so it changes nothing when this worked and queues them when
 * this failed. The event's id de-duplicates overlapping resends.
 */
export async function sendGenerationFinished(generationId: string, accountId: string, status: TerminalStatus) {
  const kind = terminalEventFor(status);
  if (kind) {
    await inTransaction((tx) => emitGenerationEvent(tx, generationId, kind)).catch((error: unknown) => {
      log.warn("terminal webhook not queued directly; webhook-fan-out will", {
        generationId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
  await inngest.send(finishedEvent(generationId, accountId, status));
}

/**
 * For a transition that committed on its own (the success's one statement: run/settle-success.ts):
 * its terminal deliveries, queued now in a transaction of their own (once per endpoint: the event
 * key). Should that fail, the generation/finished event has webhook-fan-out queue them; should the
 * process die first, resendLostFinishedEvents finds the transition without its deliveries.
 */
export async function queueFinishedAfterCommit(generationId: string, accountId: string, status: TerminalStatus) {
  const kind = terminalEventFor(status);
  if (!kind) return;
  try {
    await inTransaction((tx) => emitGenerationEvent(tx, generationId, kind));
  } catch (error) {
    log.warn("terminal webhook not queued after the transition; webhook-fan-out will", {
      generationId,
      error: error instanceof Error ? error.message : String(error),
    });
    await inngest.send(finishedEvent(generationId, accountId, status)).catch((sendError: unknown) => {
      log.warn("generation/finished not sent; the lost-events sweep will", { generationId, error: String(sendError) });
    });
  }
}

import { db } from "../db";
import { inngest } from "../inngest/client";
import { lowBalanceFired } from "../inngest/events";
import { log } from "../runtime/log";

// The `alerts/low-balance.fired` event must leave only after the ledger movement commits, but the
// alert is found deep inside the caller's transaction (appendLedgerEntry), which cannot see the
// commit. So the send waits for it: that transaction holds the account row lock (every movement
// locks it, and the balance UPDATE does too), and a FOR SHARE read of that row on another
// connection returns only once the transaction has ended. Committed → the notification is
// visible → send; rolled back → it is not → nothing. Best effort by design: if this process dies
// first, the one-minute sweep (alerts-dispatch-sweep) dispatches the alert anyway.

const inFlight = new Set<Promise<void>>();

/** `low-balance:<notification id>`: a repeated send is one event. */
export async function sendLowBalanceFired(alert: { accountId: string; notificationId: string }): Promise<void> {
  await inngest.send(lowBalanceFired.create(alert, { id: `low-balance:${alert.notificationId}` }));
}

export function sendLowBalanceFiredAfterCommit(alert: { accountId: string; notificationId: string }): void {
  const task = (async () => {
    await db.$queryRaw`SELECT 1 AS ended FROM account WHERE id = ${alert.accountId}::uuid FOR SHARE`;
    const committed = await db.notification.findUnique({ where: { id: alert.notificationId }, select: { id: true } });
    if (committed) await sendLowBalanceFired(alert);
  })().catch((error: unknown) => {
    log.warn("low-balance alert: sending the event after commit failed; the sweep will dispatch it", {
      notification_id: alert.notificationId,
      error: error instanceof Error ? error.message : String(error),
    });
  });
  inFlight.add(task);
  void task.finally(() => inFlight.delete(task));
}

/** Resolves when every post-commit send started so far has finished (tests, graceful shutdown). */
export async function settleLowBalanceSends(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

import { inngest } from "../base/events/client";
import { lowBalanceFired } from "../base/events/definitions";

// The `alerts/low-balance.fired` event leaves once the ledger movement that fired the alert has
// committed: recordLowBalanceAlert puts this send on the transaction's after-commit outbox.

/** `low-balance:<notification id>`: a repeated send is one event. */
export async function sendLowBalanceFired(alert: { accountId: string; notificationId: string }): Promise<void> {
  await inngest.send(lowBalanceFired.create(alert, { id: `low-balance:${alert.notificationId}` }));
}

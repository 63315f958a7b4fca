import "server-only";
import { RetryAfterError } from "inngest";
import { emitLowBalanceWebhook, loadLowBalanceAlert, markLowBalanceAlertDispatched } from "../../alerts/dispatch-low-balance-alert";
import { EmailRetryableError, SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred } from "../../email/send-email";
import { inTransaction } from "../../base/transaction";
import { inngest } from "../../base/events/client";
import { lowBalanceFired } from "../../base/events/definitions";

// alerts/low-balance.fired (sent once the ledger movement committed) → the alert's side effects as
// named steps: the webhook event, one step per owner's e-mail (Resend's Retry-After is honoured),
// then the dispatched marker, each step in its own transaction. A run that gives up leaves the
// alert undispatched for the sweep.

export const alertDispatch = inngest.createFunction(
  { id: "alerts-dispatch", triggers: [lowBalanceFired], retries: 5 },
  async ({ event, step }) => {
    const { notificationId } = event.data;
    const loaded = await step.run("load", () => loadLowBalanceAlert(notificationId));
    if (!loaded) return { skipped: "no such alert" };
    if (loaded.dispatched) return { skipped: "already dispatched" };
    const { alert } = loaded;

    await step.run("emit-webhook-event", () => inTransaction((tx) => emitLowBalanceWebhook(tx, alert)));
    for (const emailId of alert.emailIds) {
      await step.run(`email-${emailId}`, async () => {
        try {
          return throwIfDeferred(await inTransaction((tx) => sendEmail(tx, emailId), SEND_EMAIL_TRANSACTION));
        } catch (error) {
          if (error instanceof EmailRetryableError && error.retryAfterSeconds)
            throw new RetryAfterError(error.message, error.retryAfterSeconds * 1000);
          throw error;
        }
      });
    }
    return step.run("mark-dispatched", async () => ({ dispatched: await inTransaction((tx) => markLowBalanceAlertDispatched(tx, alert)) }));
  },
);

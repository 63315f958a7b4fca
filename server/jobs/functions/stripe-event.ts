import "server-only";
import { SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred } from "../../email/send-email";
import { inTransaction } from "../../base/transaction";
import { inngest } from "../../base/events/client";
import { stripeEventReceived } from "../../base/events/definitions";

// stripe/event.received → apply the stored event (one transaction, re-reading Stripe), then send
// the e-mails it queued, one step each. A run that gives up leaves the event unapplied (or the
// e-mails queued) for the billing sweep.

// Imported at the first event, not with the serve route (which loads every function when the
// server starts): applying an event needs the Stripe SDK, a few MB of heap a server that sells
// nothing would carry for good (issue #12).
const loadApplyStripeEvent = () => import("../../billing/events/apply-stripe-event");

export const stripeEvent = inngest.createFunction(
  { id: "stripe-event", triggers: [stripeEventReceived], retries: 5 },
  async ({ event, step }) => {
    const outcome = await step.run("apply", async () => (await loadApplyStripeEvent()).applyStripeEvent(event.data.stripeEventId));
    for (const emailId of outcome.emailIds ?? []) {
      await step.run(`email-${emailId}`, async () =>
        throwIfDeferred(await inTransaction((tx) => sendEmail(tx, emailId), SEND_EMAIL_TRANSACTION)),
      );
    }
    return outcome;
  },
);

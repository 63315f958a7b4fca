import "server-only";
import { SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred } from "../../email/send-email";
import { inTransaction } from "../../base/transaction";
import { inngest } from "../../base/events/client";
import { autoTopUpRequested } from "../../base/events/definitions";

// billing/auto-top-up.requested → decide (the order, the setting, the subscription, the monthly
// cap, under the account's lock), charge the saved card off-session (the order's id as Stripe's
// idempotency key), then send the e-mails a decline or a skip queued, one step each. Credits come
// with Stripe's payment_intent.succeeded (stripe-event). One run per order at a time; a run that
// gives up leaves the order to the billing sweep (server/billing/auto-top-up/sweep-top-ups.ts).

// Loaded at the first top-up, as the stripe-event function loads its module: the Stripe SDK stays
// out of a server that sells nothing.
const loadCharge = () => import("../../billing/auto-top-up/charge-top-up");

export const autoTopUp = inngest.createFunction(
  { id: "auto-top-up", triggers: [autoTopUpRequested], retries: 5, concurrency: { key: "event.data.orderId", limit: 1 } },
  async ({ event, step }) => {
    const decision = await step.run("decide", async () => (await loadCharge()).decideTopUp(event.data.orderId));
    const outcome =
      "charge" in decision
        ? await step.run("charge", async () => (await loadCharge()).chargeTopUp(decision.charge))
        : { action: decision.skipped, emailIds: decision.emailIds };
    for (const emailId of outcome.emailIds ?? []) {
      await step.run(`email-${emailId}`, async () =>
        throwIfDeferred(await inTransaction((tx) => sendEmail(tx, emailId), SEND_EMAIL_TRANSACTION)),
      );
    }
    return outcome;
  },
);

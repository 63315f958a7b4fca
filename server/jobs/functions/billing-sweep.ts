import "server-only";
import { sweepStripeEvents } from "../../billing/events/sweep-stripe-events";
import { inngest } from "../../base/events/client";

// Every minute: Stripe events left unapplied and billing e-mails left queued (server/billing).

export const billingSweep = inngest.createFunction(
  { id: "billing-sweep", triggers: [{ cron: "* * * * *" }], retries: 1 },
  async ({ step }) => step.run("sweep", () => sweepStripeEvents({ now: new Date() })),
);

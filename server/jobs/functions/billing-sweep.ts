import "server-only";
import { sweepStripeEvents } from "../../billing/events/sweep-stripe-events";
import { inngest } from "../../base/events/client";

// Every minute: Stripe events left unapplied and billing e-mails left queued, and auto top-ups
// whose event or webhook was lost (server/billing).

const loadTopUpSweep = () => import("../../billing/auto-top-up/sweep-top-ups");

export const billingSweep = inngest.createFunction(
  { id: "billing-sweep", triggers: [{ cron: "* * * * *" }], retries: 1 },
  async ({ step }) => {
    const events = await step.run("sweep", () => sweepStripeEvents({ now: new Date() }));
    const topUps = await step.run("top-ups", async () => {
      // Nothing to sweep, or no Stripe to ask, without an order in flight: the SDK is never loaded for it.
      const { db } = await import("../../base/db");
      const waiting = await db.order.count({ where: { kind: "auto_top_up", status: { in: ["pending", "processing"] } } });
      return waiting === 0 ? {} : (await loadTopUpSweep()).sweepTopUps();
    });
    return { ...events, topUps };
  },
);

import "server-only";
import { renewManualPlans } from "../../billing/manual-plans";
import { inngest } from "../../events/client";

// Every 15 minutes: contract plans (set by an operator, no Stripe) get each period's credits once.

export const manualPlanRenewals = inngest.createFunction({ id: "manual-plan-renewals", triggers: [{ cron: "*/15 * * * *" }], retries: 2 }, async ({ step }) =>
  step.run("renew", () => renewManualPlans({ now: new Date() })),
);

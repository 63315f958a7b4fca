import "server-only";
import { dueManualPlans, renewManualPlan } from "../../billing/manual-plans";
import { db } from "../../base/db";
import { inngest } from "../../base/events/client";
import { inTransaction } from "../../base/transaction";

// Every 15 minutes: contract plans (set by an operator, no Stripe) get each period's credits once.

/** One run of the cron: each due account renewed in its own transaction. */
export async function renewManualPlans({ now }: { now: Date }): Promise<{ accounts: number; granted: number }> {
  const due = await dueManualPlans(db, { now });
  let granted = 0;
  for (const scope of due) granted += (await inTransaction((tx) => renewManualPlan(tx, scope, now))).granted.length;
  return { accounts: due.length, granted };
}

export const manualPlanRenewals = inngest.createFunction(
  { id: "manual-plan-renewals", triggers: [{ cron: "*/15 * * * *" }], retries: 2 },
  async ({ step }) => step.run("renew", () => renewManualPlans({ now: new Date() })),
);

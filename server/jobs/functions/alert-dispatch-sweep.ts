import "server-only";
import { OPERATOR } from "../../base/account-scope";
import { sweepUndispatchedAlerts } from "../../alerts/sweep-undispatched-alerts";
import { db } from "../../base/db";
import { inngest } from "../../base/events/client";

// Every minute: low-balance alerts whose post-commit event was lost (a crash between commit and
// send, an Inngest outage) or whose run gave up are dispatched here (server/alerts).

export const alertDispatchSweep = inngest.createFunction(
  { id: "alerts-dispatch-sweep", triggers: [{ cron: "* * * * *" }], retries: 1 },
  async ({ step }) => step.run("sweep", () => sweepUndispatchedAlerts(db, OPERATOR)),
);

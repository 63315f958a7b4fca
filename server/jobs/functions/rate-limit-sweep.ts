import "server-only";
import { db } from "../../base/db";
import { sweepExpiredRateLimitWindows } from "../../rate-limit/sweep-expired-windows";
import { inngest } from "../../base/events/client";

// Every 5 minutes: PostgreSQL rate-limit windows older than ten minutes are deleted (Redis keys
// expire by themselves).

export const rateLimitSweep = inngest.createFunction(
  { id: "rate-limit-sweep", triggers: [{ cron: "*/5 * * * *" }], retries: 2 },
  async ({ step }) => step.run("sweep", () => sweepExpiredRateLimitWindows(db, { now: Date.now() })),
);

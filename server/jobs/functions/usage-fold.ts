import "server-only";
import { db } from "../../base/db";
import { inngest } from "../../base/events/client";
import { foldUsage } from "../../usage/rollups/fold-usage";

// Every minute: the usage counters' changes move into their hours and days (server/usage/rollups),
// so reads sum few rows. Reads are exact whether or not it ran.

export const usageFold = inngest.createFunction({ id: "usage-fold", triggers: [{ cron: "* * * * *" }], retries: 2 }, async ({ step }) =>
  step.run("fold", () => foldUsage(db)),
);

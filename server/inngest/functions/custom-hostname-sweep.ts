import "server-only";
import { sweepHostnames } from "../../hostnames/sweep-hostnames";
import { inngest } from "../../events/client";

// Every 5 minutes: picks up custom hostnames whose verification or removal event was lost.
export const customHostnameSweep = inngest.createFunction({ id: "custom-hostname-sweep", triggers: [{ cron: "*/5 * * * *" }], retries: 1 }, async ({ step }) =>
  step.run("sweep", () => sweepHostnames()),
);

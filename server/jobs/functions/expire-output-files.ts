import "server-only";
import { expireOutputFiles } from "../../generations/expire-output-files";
import { inngest } from "../../base/events/client";

// Every 10 minutes: output files past the plan's output retention are deleted.

export const expireOutputFilesFunction = inngest.createFunction(
  { id: "expire-output-files", triggers: [{ cron: "*/10 * * * *" }], retries: 2 },
  async ({ step }) => step.run("expire", () => expireOutputFiles()),
);

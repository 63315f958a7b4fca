import "server-only";
import { expireOutputFiles } from "../../generations/expire-output-files";
import { expireUploads } from "../../playground/uploads/expire-uploads";
import { OPERATOR } from "../../base/account-scope";
import { inngest } from "../../base/events/client";

// Every 10 minutes: output files past the plan's output retention are deleted, and the
// playground's uploads past their 24 hours (objects and rows).

export const expireOutputFilesFunction = inngest.createFunction(
  { id: "expire-output-files", triggers: [{ cron: "*/10 * * * *" }], retries: 2 },
  async ({ step }) => {
    const outputs = await step.run("expire", () => expireOutputFiles());
    const uploads = await step.run("expire-uploads", () => expireUploads(OPERATOR));
    return { ...outputs, uploads };
  },
);

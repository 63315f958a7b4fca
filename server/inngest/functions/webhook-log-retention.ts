import "server-only";
import { purgeWebhookLogs } from "../../webhooks/purge-webhook-logs";
import { inngest } from "../client";

// Daily: webhook deliveries and attempts past the plan's retention are deleted.

export const webhookLogRetention = inngest.createFunction({ id: "webhook-log-retention", triggers: [{ cron: "17 3 * * *" }], retries: 2 }, async ({ step }) =>
  step.run("purge", () => purgeWebhookLogs()),
);

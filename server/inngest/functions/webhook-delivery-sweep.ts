import "server-only";
import { db } from "../../db";
import { rerequestStalledDeliveries } from "../../webhooks/rerequest-stalled-deliveries";
import { inngest } from "../client";

// Every 5 minutes: webhook deliveries whose run request was lost are requested again.

export const webhookDeliverySweep = inngest.createFunction({ id: "webhook-delivery-sweep", triggers: [{ cron: "*/5 * * * *" }], retries: 2 }, async ({ step }) =>
  step.run("rerequest", () => rerequestStalledDeliveries(db, { now: new Date() })),
);

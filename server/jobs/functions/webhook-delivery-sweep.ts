import "server-only";
import { db } from "../../base/db";
import { rerequestStalledDeliveries } from "../../webhooks/rerequest-stalled-deliveries";
import { inngest } from "../../base/events/client";

// Every minute: webhook deliveries whose run request was lost are requested again (never sent
// after 30 s, stalled after 5 minutes; see rerequest-stalled-deliveries.ts).

export const webhookDeliverySweep = inngest.createFunction(
  { id: "webhook-delivery-sweep", triggers: [{ cron: "* * * * *" }], retries: 2 },
  async ({ step }) => step.run("rerequest", () => rerequestStalledDeliveries(db, { now: new Date() })),
);

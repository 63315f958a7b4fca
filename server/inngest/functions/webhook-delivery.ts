import "server-only";
import { RetryAfterError } from "inngest";
import { attemptDelivery } from "../../webhooks/deliver";
import { failDelivery } from "../../webhooks/fail-delivery";
import { nextAttemptAt } from "../../webhooks/retry-schedule";
import { inngest } from "../client";
import { webhookDeliveryRequested } from "../events";

// webhook/delivery.requested → one step, "attempt", retried by the executor: an immediate try,
// then at +0.5, +1.5, +3 and +5 s from the first (RetryAfterError with a Date keeps the
// milliseconds). The step's attempt counter numbers the webhook_attempt rows. When the fifth try
// fails, the step's final error comes back to this function, which marks the delivery failed.

export const webhookDelivery = inngest.createFunction(
  { id: "webhook-delivery", triggers: [webhookDeliveryRequested], retries: 4 }, // WEBHOOK_MAX_ATTEMPTS - 1: the SDK types want a literal
  async ({ event, step, attempt }) => {
    const { deliveryId, fromAttempt } = event.data;
    try {
      return await step.run("attempt", async () => {
        const result = await attemptDelivery({ deliveryId, attemptNumber: fromAttempt + attempt });
        if (result.outcome !== "failed") return result;
        const retryAt = await nextAttemptAt({ deliveryId, fromAttempt, retryIndex: attempt, startedAtMs: result.startedAtMs });
        const message = `attempt ${result.attemptNumber} failed: ${result.error}`;
        if (retryAt === null) throw new Error(message);
        throw new RetryAfterError(message, retryAt);
      });
    } catch (error) {
      await step.run("mark-failed", () => failDelivery(deliveryId));
      return { outcome: "failed", error: error instanceof Error ? error.message : String(error) };
    }
  },
);

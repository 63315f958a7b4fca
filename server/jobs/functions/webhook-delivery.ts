import "server-only";
import { RetryAfterError } from "inngest";
import { inTransaction } from "../../base/transaction";
import { postDelivery, type DeliveryAttemptOptions } from "../../webhooks/deliver";
import type { DeliveryAttemptResult } from "../../webhooks/delivery-attempt";
import { failDelivery } from "../../webhooks/fail-delivery";
import { loadDeliveryToAttempt, recordAttempt } from "../../webhooks/record-attempt";
import { nextAttemptAt } from "../../webhooks/retry-schedule";
import { inngest } from "../../base/events/client";
import { webhookDeliveryRequested } from "../../base/events/definitions";

// webhook/delivery.requested → one step, "attempt", retried by the executor: an immediate try,
// then at +0.5, +1.5, +3 and +5 s from the first (RetryAfterError with a Date keeps the
// milliseconds). The step's attempt counter numbers the webhook_attempt rows. When the fifth try
// fails, the step's final error comes back to this function, which marks the delivery failed.

/** The "attempt" step's work: read and record each in a transaction of their own, the POST between them outside any. */
export async function attemptDelivery(
  input: { deliveryId: string; attemptNumber: number },
  options: DeliveryAttemptOptions = {},
): Promise<DeliveryAttemptResult> {
  const delivery = await inTransaction((tx) => loadDeliveryToAttempt(tx, input.deliveryId));
  if ("outcome" in delivery) return delivery;
  const sent = await postDelivery(delivery, input.attemptNumber, options);
  return inTransaction((tx) => recordAttempt(tx, delivery, sent));
}

/** The delivery function on `client`: the app's below; a suite's own client runs it on a fake clock (tests/integration/webhooks/retry-schedule.test.ts). */
export const webhookDeliveryOn = (client: typeof inngest) =>
  client.createFunction(
    // retries: WEBHOOK_MAX_ATTEMPTS - 1 (the SDK types want a literal). At most 12 deliveries at once:
    // a backlog of slow endpoints never takes every slot of the executor (16) from generations.
    { id: "webhook-delivery", triggers: [webhookDeliveryRequested], retries: 4, concurrency: { limit: 12 } },
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
        await step.run("mark-failed", () => inTransaction((tx) => failDelivery(tx, deliveryId)));
        return { outcome: "failed", error: error instanceof Error ? error.message : String(error) };
      }
    },
  );

export const webhookDelivery = webhookDeliveryOn(inngest);

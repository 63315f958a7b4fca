import { eventType } from "inngest";
import { z } from "zod";

// Every event Darkroom sends. Event ids are deterministic where a duplicate must be harmless:
// `generation-requested:<generation id>`, and so on.

/** A generation was created and credits reserved: run it through the provider chain. */
export const generationRequested = eventType("generation/requested", {
  schema: z.object({ generationId: z.string().uuid(), accountId: z.string().uuid() }),
});

/** A provider delivered a result by callback (webhook providers and the built-in renderers). */
export const providerResultReceived = eventType("provider/result.received", {
  schema: z.object({
    generationId: z.string().uuid(),
    provider: z.string(),
    predictionId: z.string(),
  }),
});

/** A generation reached a terminal state: fan out webhook deliveries (webhook-fan-out). */
export const generationFinished = eventType("generation/finished", {
  schema: z.object({
    generationId: z.string().uuid(),
    accountId: z.string().uuid(),
    status: z.enum(["succeeded", "failed", "canceled"]),
  }),
});

/**
 * A webhook delivery is due: attempt it, retrying on the fixed schedule (retry-schedule.ts). `fromAttempt` numbers
 * the first attempt of this run (1, or the next number when a failed delivery is re-sent).
 * Event id `webhook-delivery:<delivery id>`; a re-send of a failed delivery has its own.
 */
export const webhookDeliveryRequested = eventType("webhook/delivery.requested", {
  schema: z.object({ deliveryId: z.string().uuid(), fromAttempt: z.number().int().min(1) }),
});

/**
 * One or more low-balance thresholds fired in a committed ledger movement: send the alert's
 * email and `credits.low_balance` webhook event. Id `low-balance:<notification id>`.
 */
export const lowBalanceFired = eventType("alerts/low-balance.fired", {
  schema: z.object({ accountId: z.string().uuid(), notificationId: z.string().uuid() }),
});

/** A Stripe webhook event was verified and stored: apply it (stripe-event). Id `stripe-event:<evt id>`. */
export const stripeEventReceived = eventType("stripe/event.received", {
  schema: z.object({ stripeEventId: z.string().min(1).max(255) }),
});

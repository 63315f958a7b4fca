import { eventType } from "inngest";
import { z } from "zod";

// Every event Darkroom sends. Event ids are deterministic where a duplicate must be harmless:
// `generation-requested:<generation id>`, and so on.

/** A generation was created and credits reserved: run it through the provider chain. */
export const generationRequested = eventType("generation/requested", {
  // providers: the order chosen at create (the generation row has it too); a run that gets it
  // here skips the step that would read it. Events re-sent by the sweeper leave it out.
  // deadlineAt: the generation's Cancel-After deadline, which the run races its provider waits against.
  schema: z.object({
    generationId: z.string().uuid(),
    accountId: z.string().uuid(),
    providers: z.array(z.string()).optional(),
    deadlineAt: z.string().optional(),
  }),
});

/**
 * A generation was created with a Cancel-After deadline: enforce-generation-deadline sleeps until
 * it and cancels the generation if it is still in flight then. Id `generation-deadline:<generation id>`.
 */
export const generationDeadlineSet = eventType("generation/deadline.set", {
  schema: z.object({ generationId: z.string().uuid(), accountId: z.string().uuid(), deadlineAt: z.string() }),
});

/** A provider delivered a result by callback (webhook providers and the built-in renderers). */
export const providerResultReceived = eventType("provider/result.received", {
  schema: z.object({
    generationId: z.string().uuid(),
    provider: z.string(),
    predictionId: z.string(),
  }),
});

/**
 * A provider accepted a job that runs on its side: poll it until it ends (poll-provider-job), then
 * send providerResultReceived, which wakes the run's one wait for it. Id `provider-poll:<provider>:<prediction id>`.
 */
export const providerJobAccepted = eventType("provider/job.accepted", {
  schema: z.object({
    generationId: z.string().uuid(),
    provider: z.string(),
    attempt: z.number().int().min(1),
    predictionId: z.string(),
    startedAtMs: z.number(),
    timeoutSeconds: z.number().positive(),
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

/**
 * A spend alert (50/80/100 % of a key's or the account's limit) was recorded with the create that
 * crossed it: send its queued e-mails to the owners (spend-alert-emails). Id `spend-alert:<alert id>`.
 */
export const spendAlertFired = eventType("alerts/spend.fired", {
  schema: z.object({ accountId: z.string().uuid(), spendAlertId: z.string().uuid(), emailIds: z.array(z.string().uuid()) }),
});

/**
 * A ledger movement left the balance below an auto top-up's threshold and inserted its order:
 * charge the saved card (auto-top-up). Id `auto-top-up:<order id>`.
 */
export const autoTopUpRequested = eventType("billing/auto-top-up.requested", {
  schema: z.object({ orderId: z.string().uuid() }),
});

/** A Stripe webhook event was verified and stored: apply it (stripe-event). Id `stripe-event:<evt id>`. */
export const stripeEventReceived = eventType("stripe/event.received", {
  schema: z.object({ stripeEventId: z.string().min(1).max(255) }),
});

/**
 * A custom hostname's CNAME is to be verified (set, or a re-check): custom-hostname-verify checks it
 * until it points at the target or 24 h pass. A run whose token is no longer the hostname's stops.
 * Id `hostname-verification:<token>`.
 */
export const hostnameVerificationRequested = eventType("hostname/verification.requested", {
  schema: z.object({ hostnameId: z.string().uuid(), verificationToken: z.string().min(1).max(100) }),
});

/** A custom hostname was marked `removing`: custom-hostname-remove deletes it. Id `hostname-removal:<hostname id>`. */
export const hostnameRemovalRequested = eventType("hostname/removal.requested", {
  schema: z.object({ hostnameId: z.string().uuid(), actor: z.string().min(1).max(100) }),
});

import type Stripe from "stripe";
import { db } from "../../base/db";
import { log } from "../../base/log";
import { inTransaction } from "../../base/transaction";
import { APPLY_TRANSACTION } from "../events/apply-stripe-event";
import type { EventOutcome } from "../events/event-outcome";
import { stripeClient } from "../stripe-client";
import { chargeTopUp, decideTopUp } from "./charge-top-up";
import { fulfilTopUp, recordTopUpFailure } from "./settle-top-up";

// The billing sweep's part for auto top-up, once a minute, for what the event-driven path missed:
// an order still `pending` a minute after its movement (the event was lost: decided and charged
// here), one `processing` without a PaymentIntent (the run died around its Stripe call: charged
// again under the same idempotency key, so Stripe answers the first result), and one `processing`
// whose PaymentIntent is known but whose webhook never came: the PaymentIntent is read from
// Stripe and settled as the webhook would have.

const GRACE_MS = 60_000;

export type TopUpSweep = Record<string, string>;

export async function sweepTopUps({ now = new Date(), graceMs = GRACE_MS }: { now?: Date; graceMs?: number } = {}): Promise<TopUpSweep> {
  const before = new Date(now.getTime() - graceMs);
  const stale = await db.order.findMany({
    where: { kind: "auto_top_up", status: { in: ["pending", "processing"] }, updatedAt: { lt: before } },
    orderBy: { createdAt: "asc" },
    take: 100,
    select: { id: true, status: true, stripePaymentIntentId: true },
  });
  const results: TopUpSweep = {};
  for (const order of stale) {
    try {
      results[order.id] = (await settleStale(order)).action;
    } catch (error) {
      results[order.id] = "error";
      log.warn("auto top-up sweep: an order could not be settled, retried next minute", { order_id: order.id, error: String(error) });
    }
  }
  return results;
}

async function settleStale(order: { id: string; stripePaymentIntentId: string | null }): Promise<EventOutcome> {
  if (!order.stripePaymentIntentId) {
    const decision = await decideTopUp(order.id);
    return "charge" in decision ? chargeTopUp(decision.charge) : { action: decision.skipped };
  }
  const stripe = stripeClient();
  const paymentIntent = await stripe.paymentIntents.retrieve(order.stripePaymentIntentId);
  return settleFromStripe(stripe, order.id, paymentIntent);
}

export async function settleFromStripe(stripe: Stripe, orderId: string, paymentIntent: Stripe.PaymentIntent): Promise<EventOutcome> {
  if (paymentIntent.status === "succeeded") return inTransaction((tx) => fulfilTopUp(tx, stripe, paymentIntent), APPLY_TRANSACTION);
  const error = paymentIntent.last_payment_error;
  if (paymentIntent.status === "requires_payment_method" && error && error.code !== "authentication_required")
    return inTransaction((tx) =>
      recordTopUpFailure(tx, orderId, {
        code: error.decline_code ?? error.code ?? "card_declined",
        message: error.message ?? "The card was declined.",
        paymentIntentId: paymentIntent.id,
      }),
    );
  return { action: `PaymentIntent ${paymentIntent.status}: left for Stripe's answer` };
}

import type Stripe from "stripe";
import { recordActivity } from "../../activity/record-activity";
import { addCredits } from "../../credits/add-credits";
import { decimalToMillis } from "../../base/money";
import type { Tx } from "../../base/db";
import { idOf } from "../account-lookup";
import type { EventOutcome } from "../events/event-outcome";
import { holdForReview } from "./hold-for-review";
import { allowsPacks } from "../../plans/subscription-status";
import { syncSubscription } from "../sync-subscription";
import { lockOrder, orderLabel } from "./lock-order";
import { isGuid } from "../../base/guid";

// A pack's Checkout was paid. Subscription still active (re-read from Stripe first, so an
// out-of-order cancellation counts) → one `add` keyed by the Checkout session, order `fulfilled`.
// Not active any more → no credits: order `manual_review`, the primary owner notified, an
// operator approves (credits) or rejects (refund). A second delivery finds the order settled.

export async function fulfilPackOrder(tx: Tx, stripe: Stripe, session: Stripe.Checkout.Session, accountId: string): Promise<EventOutcome> {
  const orderId = session.metadata?.order_id;
  const order =
    (await lockOrder(tx, { stripeCheckoutSessionId: session.id })) ??
    (orderId && isGuid(orderId) ? await lockOrder(tx, { id: orderId }) : null);
  if (!order || order.accountId !== accountId) return { action: "paid Checkout with no order of this account" };
  if (order.status !== "pending" && order.status !== "expired") return { action: `order already ${order.status}` };
  await tx.order.update({
    where: { id: order.id },
    data: { stripeCheckoutSessionId: session.id, stripePaymentIntentId: idOf(session.payment_intent) },
  });

  const stored = await tx.subscription.findUnique({ where: { accountId }, select: { stripeSubscriptionId: true, status: true } });
  const current = stored?.stripeSubscriptionId
    ? ((await syncSubscription(tx, stripe, { id: stored.stripeSubscriptionId, customer: session.customer }))?.status ?? stored.status)
    : stored?.status;

  if (allowsPacks(current)) {
    await addCredits(tx, {
      accountId,
      amountMillis: decimalToMillis(order.credits),
      sourceKey: `checkout:${session.id}`,
      description: orderLabel(order),
    });
    await tx.order.update({ where: { id: order.id }, data: { status: "fulfilled", fulfilledAt: new Date() } });
    await recordActivity(tx, {
      accountId,
      actor: "system",
      category: "order",
      action: "order.fulfilled",
      description: `${orderLabel(order)} paid and credited`,
      metadata: { order_id: order.id, checkout_session_id: session.id },
    });
    return { action: "order fulfilled" };
  }
  return holdForReview(tx, {
    order,
    label: orderLabel(order),
    subscription: current ?? "absent",
    paidWith: { checkout_session_id: session.id },
    title: "Credit pack waiting for review",
    lines: [
      `Your ${orderLabel(order)} was paid after the subscription stopped being active, so its credits were not added automatically.`,
      "An operator reviews it: approved, the credits are added; rejected, the payment is refunded.",
    ],
  });
}

export async function expirePackOrder(tx: Tx, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const order = await lockOrder(tx, { stripeCheckoutSessionId: session.id });
  if (!order || order.status !== "pending") return { action: "no pending order for this Checkout" };
  await tx.order.update({ where: { id: order.id }, data: { status: "expired" } });
  await recordActivity(tx, {
    accountId: order.accountId,
    actor: "system",
    category: "order",
    action: "order.expired",
    description: `${orderLabel(order)}: Checkout expired unpaid`,
    metadata: { order_id: order.id },
  });
  return { action: "order expired" };
}

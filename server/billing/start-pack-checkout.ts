import { recordActivity } from "../activity/record-activity";
import { db } from "../db";
import { invalidRequest } from "../error-table";
import { inTransaction } from "../transaction";
import { billingPageUrl } from "./billing-urls";
import { type PackSize } from "./price-catalog";
import { stripeClient } from "./stripe-client";
import { ensureStripeCustomer } from "./stripe-customer";
import { findCatalogPrice } from "./stripe-prices";
import { allowsPacks } from "../plans/subscription-status";

// Checkout in payment mode for one credit pack (primary owner only), sold only while the
// subscription is active or trialing. The order row exists before Checkout does, so the payment
// always has an order to land on; its id is the Checkout session's idempotency key.

export type PackCheckoutInput = { accountId: string; userId: string; credits: PackSize };

export async function startPackCheckout(input: PackCheckoutInput): Promise<{ url: string; sessionId: string; orderId: string }> {
  const stripe = stripeClient();
  const subscription = await db.subscription.findUnique({ where: { accountId: input.accountId }, select: { status: true } });
  if (!allowsPacks(subscription?.status)) {
    throw invalidRequest("Credit packs are sold on top of an active subscription; subscribe to a plan first.", [{ field: "credits", message: "needs an active subscription" }]);
  }
  const price = await findCatalogPrice(stripe, { kind: "pack", credits: input.credits });
  const customer = await ensureStripeCustomer(stripe, input.accountId);
  const order = await inTransaction(async (tx) => {
    const created = await tx.order.create({
      data: { accountId: input.accountId, credits: String(input.credits), amountCents: price.unitAmount, currency: price.currency, purchasedById: input.userId },
      select: { id: true },
    });
    await recordActivity(tx, {
      accountId: input.accountId,
      actor: input.userId,
      category: "order",
      action: "order.created",
      description: `Order for a ${input.credits}-credit pack started`,
      metadata: { order_id: created.id, credits: input.credits, amount_cents: price.unitAmount, currency: price.currency },
    });
    return created;
  });
  const metadata = { account_id: input.accountId, order_id: order.id, pack_credits: String(input.credits) };
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      customer,
      client_reference_id: input.accountId,
      line_items: [{ price: price.priceId, quantity: 1 }],
      metadata,
      payment_intent_data: { metadata },
      success_url: billingPageUrl(input.accountId, "pack=success&session_id={CHECKOUT_SESSION_ID}"),
      cancel_url: billingPageUrl(input.accountId, "pack=canceled"),
    },
    { idempotencyKey: `darkroom-order-${order.id}` },
  );
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  await db.order.update({ where: { id: order.id }, data: { stripeCheckoutSessionId: session.id } });
  return { url: session.url, sessionId: session.id, orderId: order.id };
}

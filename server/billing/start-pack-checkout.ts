import { recordActivity } from "../activity/record-activity";
import type { OneAccount } from "../base/account-scope";
import type { Db, Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { billingPageUrl } from "./billing-urls";
import { type PackSize } from "./price-catalog";
import { stripeClient } from "./stripe-client";
import { ensureStripeCustomer } from "./stripe-customer";
import { findCatalogPrice } from "./stripe-prices";
import { allowsPacks } from "../plans/subscription-status";

// Checkout in payment mode for one credit pack (primary owner only), sold only while the
// subscription is active or trialing. The order row exists before Checkout does, so the payment
// always has an order to land on; its id is the Checkout session's idempotency key.

export type PackCheckoutInput = { userId: string; credits: PackSize };

/** What a pack's Checkout needs from Stripe before its order exists. */
export type PreparedPackCheckout = PackCheckoutInput & { price: Awaited<ReturnType<typeof findCatalogPrice>>; customer: string };

/**
 * A pack's Checkout in three parts, so no transaction stays open across a call to Stripe: the
 * checks and Stripe's price and customer (preparePackCheckout), the order row in the caller's
 * transaction (createPackOrder), then the Checkout session once it committed (openPackCheckout).
 */
export async function preparePackCheckout(db: Db, scope: OneAccount, input: PackCheckoutInput): Promise<PreparedPackCheckout> {
  const stripe = stripeClient();
  const subscription = await db.subscription.findUnique({ where: { accountId: scope.accountId }, select: { status: true } });
  if (!allowsPacks(subscription?.status)) {
    throw invalidRequest("Credit packs are sold on top of an active subscription; subscribe to a plan first.", [
      { field: "credits", message: "needs an active subscription" },
    ]);
  }
  const price = await findCatalogPrice(stripe, { kind: "pack", credits: input.credits });
  const customer = await ensureStripeCustomer(stripe, scope.accountId);
  return { ...input, price, customer };
}

export async function createPackOrder(tx: Tx, scope: OneAccount, checkout: PreparedPackCheckout): Promise<{ id: string }> {
  const { accountId } = scope;
  const { price, credits, userId } = checkout;
  const created = await tx.order.create({
    data: { accountId, credits: String(credits), amountCents: price.unitAmount, currency: price.currency, purchasedById: userId },
    select: { id: true },
  });
  await recordActivity(tx, {
    accountId,
    actor: userId,
    category: "order",
    action: "order.created",
    description: `Order for a ${credits}-credit pack started`,
    metadata: { order_id: created.id, credits, amount_cents: price.unitAmount, currency: price.currency },
  });
  return created;
}

export async function openPackCheckout(
  db: Db,
  scope: OneAccount,
  input: { checkout: PreparedPackCheckout; orderId: string },
): Promise<{ url: string; sessionId: string; orderId: string }> {
  const { accountId } = scope;
  const { checkout, orderId } = input;
  const metadata = { account_id: accountId, order_id: orderId, pack_credits: String(checkout.credits) };
  const session = await stripeClient().checkout.sessions.create(
    {
      mode: "payment",
      customer: checkout.customer,
      client_reference_id: accountId,
      line_items: [{ price: checkout.price.priceId, quantity: 1 }],
      metadata,
      payment_intent_data: { metadata },
      success_url: billingPageUrl(accountId, "pack=success&session_id={CHECKOUT_SESSION_ID}"),
      cancel_url: billingPageUrl(accountId, "pack=canceled"),
    },
    { idempotencyKey: `darkroom-order-${orderId}` },
  );
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  await db.order.update({ where: { id: orderId }, data: { stripeCheckoutSessionId: session.id } });
  return { url: session.url, sessionId: session.id, orderId };
}

import { recordActivity } from "../activity/record-activity";
import type { OneAccount } from "../base/account-scope";
import type { Db, Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { billingPageUrl } from "./billing-urls";
import { type BillingIntervalName, type PaidPlan } from "./price-catalog";
import { stripeClient } from "./stripe-client";
import { ensureStripeCustomer } from "./stripe-customer";
import { findCatalogPrice } from "./stripe-prices";
import { isLive } from "../plans/subscription-status";

// Checkout in subscription mode for one plan and interval (primary owner only: the tRPC procedure
// checks the role). The account id travels as client_reference_id and in the subscription's
// metadata, so every later event finds its account. An account that already pays changes plan
// in the Customer Portal instead.

export type SubscriptionCheckoutInput = { userId: string; plan: PaidPlan; interval: BillingIntervalName };

/** A Checkout session opened, not yet recorded in the account's activity. */
export type OpenedSubscriptionCheckout = { url: string; sessionId: string; lookupKey: string };

/**
 * Opens the Checkout session (Stripe, outside any transaction); the caller then records it with
 * recordSubscriptionCheckout in its transaction.
 */
export async function openSubscriptionCheckout(
  db: Db,
  scope: OneAccount,
  input: SubscriptionCheckoutInput,
): Promise<OpenedSubscriptionCheckout> {
  const { accountId } = scope;
  const stripe = stripeClient();
  const current = await db.subscription.findUnique({ where: { accountId }, select: { status: true, stripeSubscriptionId: true } });
  if (current && isLive(current.status)) {
    throw invalidRequest(
      current.stripeSubscriptionId
        ? "This account already has a subscription: switch plan or interval in Manage billing."
        : "This account's plan is set by contract; ask the operator to change it.",
      [{ field: "plan", message: "already subscribed" }],
    );
  }
  const price = await findCatalogPrice(stripe, { kind: "plan", plan: input.plan, interval: input.interval });
  const customer = await ensureStripeCustomer(stripe, accountId);
  const metadata = { account_id: accountId, plan: input.plan, interval: input.interval };
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: accountId,
    line_items: [{ price: price.priceId, quantity: 1 }],
    subscription_data: { metadata },
    metadata,
    success_url: billingPageUrl(accountId, "checkout=success&session_id={CHECKOUT_SESSION_ID}"),
    cancel_url: billingPageUrl(accountId, "checkout=canceled"),
  });
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  return { url: session.url, sessionId: session.id, lookupKey: price.lookupKey };
}

export async function recordSubscriptionCheckout(
  tx: Tx,
  scope: OneAccount,
  input: SubscriptionCheckoutInput & { opened: OpenedSubscriptionCheckout },
) {
  await recordActivity(tx, {
    accountId: scope.accountId,
    actor: input.userId,
    category: "subscription",
    action: "subscription.checkout_started",
    description: `Checkout started for ${input.plan} (${input.interval}ly)`,
    metadata: { checkout_session_id: input.opened.sessionId, lookup_key: input.opened.lookupKey },
  });
}

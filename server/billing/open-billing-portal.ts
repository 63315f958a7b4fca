import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { billingPageUrl } from "./billing-urls";
import { stripeClient } from "./stripe-client";

// Stripe's Customer Portal: payment method, invoices, plan switch and cancellation (primary owner
// only). It needs the account's Stripe customer, which the first Checkout creates.

export async function openBillingPortal(db: Db, scope: OneAccount): Promise<{ url: string }> {
  const { accountId } = scope;
  const stripe = stripeClient();
  const account = await db.account.findUnique({ where: { id: accountId }, select: { stripeCustomerId: true } });
  if (!account?.stripeCustomerId)
    throw invalidRequest("This account has no Stripe billing yet: subscribe to a plan first.", [
      { field: "customer", message: "none yet" },
    ]);
  const session = await stripe.billingPortal.sessions.create({ customer: account.stripeCustomerId, return_url: billingPageUrl(accountId) });
  return { url: session.url };
}

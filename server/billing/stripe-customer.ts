import type Stripe from "stripe";
import { db } from "../base/db";
import { ApiError } from "../base/error-table";

// One Stripe customer per account, created on the first purchase and reused ever after. The
// idempotency key makes two first purchases at once create one customer; the conditional update
// keeps the first id stored.

export async function ensureStripeCustomer(stripe: Stripe, accountId: string): Promise<string> {
  const account = await db.account.findUnique({
    where: { id: accountId },
    select: { id: true, name: true, email: true, stripeCustomerId: true },
  });
  if (!account) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  if (account.stripeCustomerId) return account.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: account.email, name: account.name, metadata: { account_id: account.id } },
    { idempotencyKey: `darkroom-customer-${account.id}` },
  );
  await db.account.updateMany({ where: { id: account.id, stripeCustomerId: null }, data: { stripeCustomerId: customer.id } });
  const stored = await db.account.findUniqueOrThrow({ where: { id: account.id }, select: { stripeCustomerId: true } });
  return stored.stripeCustomerId ?? customer.id;
}

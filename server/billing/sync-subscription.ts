import type Stripe from "stripe";
import { changePlan } from "../accounts/change-plan";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import type { SubscriptionStatus } from "../base/generated/prisma/enums";
import { log } from "../base/log";
import { idOf, lockAccount, rememberCustomer, resolveAccount, type StripeRef } from "./account-lookup";
import { parseLookupKey, type BillingIntervalName, type PaidPlan } from "./price-catalog";
import { isLive } from "../plans/subscription-status";

// Applies a Stripe subscription as Stripe has it NOW: the event only says which subscription to
// re-read. Under the account's row lock, so events that arrive out of order or twice converge on
// Stripe's current state. The plan comes from the item's price lookup key. A live subscription
// (active, trialing, past_due) sets the plan; an ended one returns the account to Free (credits
// stay). Limits follow the plan at once: they are read from the account on every request.

export type SubscriptionRef = { id: string; metadata?: Stripe.Metadata | null; customer?: StripeRef };

export type SyncedSubscription = {
  accountId: string;
  subscription: Stripe.Subscription;
  plan: PaidPlan;
  interval: BillingIntervalName;
  status: SubscriptionStatus;
} | null;

const knownStatuses: readonly string[] = [
  "active",
  "trialing",
  "past_due",
  "canceled",
  "incomplete",
  "incomplete_expired",
  "unpaid",
  "paused",
];

const label = (plan: string, interval: string) =>
  `${plan[0]!.toUpperCase()}${plan.slice(1)} (${interval === "year" ? "yearly" : "monthly"})`;

export async function syncSubscription(tx: Tx, stripe: Stripe, ref: SubscriptionRef): Promise<SyncedSubscription> {
  const accountId = await resolveAccount(tx, { claimedAccount: ref.metadata?.account_id ?? null, customer: ref.customer });
  if (!accountId) {
    log.warn("stripe: subscription for no known account", { subscription: ref.id });
    return null;
  }
  await lockAccount(tx, accountId);
  const subscription = await stripe.subscriptions.retrieve(ref.id);
  await rememberCustomer(tx, accountId, subscription.customer);
  const item = subscription.items.data[0];
  const priced = parseLookupKey(item?.price.lookup_key);
  if (!item || priced?.kind !== "plan" || !knownStatuses.includes(subscription.status)) {
    log.warn("stripe: subscription without a Darkroom plan price", {
      subscription: subscription.id,
      lookup_key: item?.price.lookup_key ?? null,
    });
    return null;
  }
  const status = subscription.status as SubscriptionStatus;
  const synced = { accountId, subscription, plan: priced.plan, interval: priced.interval, status };

  const stored = await tx.subscription.findUnique({ where: { accountId } });
  if (stored && stored.stripeSubscriptionId !== subscription.id && isLive(stored.status) && !isLive(status)) {
    // An older subscription ending while another (or an operator's contract) is in force.
    return synced;
  }
  const fields = {
    plan: priced.plan,
    interval: priced.interval,
    status,
    stripeSubscriptionId: subscription.id,
    stripePriceId: item.price.id,
    currency: subscription.currency,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: new Date(item.current_period_start * 1000),
    currentPeriodEnd: new Date(item.current_period_end * 1000),
    billingAnchor: null,
  };
  await tx.subscription.upsert({ where: { accountId }, create: { accountId, ...fields }, update: fields });

  // Incomplete: the first payment has not happened; the plan waits for it.
  if (status !== "incomplete") await changePlan(tx, { accountId, plan: isLive(status) ? priced.plan : "free" });

  const same = stored?.stripeSubscriptionId === subscription.id;
  const changes: string[] = [];
  if (!same) changes.push(`subscribed to ${label(priced.plan, priced.interval)}`);
  else {
    if (stored.plan !== priced.plan || stored.interval !== priced.interval)
      changes.push(`plan ${label(stored.plan, stored.interval)} → ${label(priced.plan, priced.interval)}`);
    if (stored.status !== status) changes.push(`status ${stored.status} → ${status}`);
    if (stored.cancelAtPeriodEnd !== subscription.cancel_at_period_end) {
      changes.push(
        subscription.cancel_at_period_end
          ? `cancels at the period end (${fields.currentPeriodEnd.toISOString().slice(0, 10)})`
          : "cancellation withdrawn",
      );
    }
  }
  if (changes.length === 0) return synced;
  const ended = !isLive(status) && status !== "incomplete";
  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "subscription",
    action: !same ? "subscription.created" : ended && stored.status !== status ? "subscription.canceled" : "subscription.updated",
    description: ended
      ? `Subscription ended (${status}); the account is on Free. Credits already added stay.`
      : `Subscription: ${changes.join("; ")}`,
    metadata: {
      stripe_subscription_id: subscription.id,
      plan: priced.plan,
      interval: priced.interval,
      status,
      cancel_at_period_end: subscription.cancel_at_period_end,
    },
  });
  return synced;
}

export function subscriptionOfInvoice(invoice: Stripe.Invoice): SubscriptionRef | null {
  const details = invoice.parent?.subscription_details;
  const id = idOf(details?.subscription);
  return id ? { id, metadata: details?.metadata ?? null, customer: invoice.customer } : null;
}

import { planOf } from "@/tests/fakes/stripe/catalog";
import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import { issueInvoice } from "@/tests/fakes/stripe/invoices";
import { embeddedList } from "@/tests/fakes/stripe/list";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// The subscription lifecycle shared by the API, hosted Checkout, the hosted portal and the test
// controls: start (first paid invoice), change (cancel at period end, undo, switch price), cancel
// now, renew at period end, and a declined renewal. Periods live on the items in this API version.

export type ItemRequest = { price: StripeObject; quantity: number };

export function addInterval(start: number, recurring: { interval: string; interval_count: number }): number {
  const date = new Date(start * 1000);
  const count = recurring.interval_count;
  if (recurring.interval === "day") return start + count * 86_400;
  if (recurring.interval === "week") return start + count * 7 * 86_400;
  const months = recurring.interval === "year" ? 12 * count : count;
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  // Jan 31 + 1 month is the last day of February, as Stripe bills it.
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}

export function subscriptionItem(
  store: StripeStore,
  subscriptionId: string,
  request: ItemRequest,
  start: number,
  end: number,
): StripeObject {
  return {
    id: store.newId("si_", 14),
    object: "subscription_item",
    billing_thresholds: null,
    created: store.now(),
    current_period_end: end,
    current_period_start: start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(request.price),
    price: structuredClone(request.price),
    quantity: request.quantity,
    subscription: subscriptionId,
    tax_rates: [],
  };
}

export function startSubscription(
  store: StripeStore,
  request: { customer: string; items: ItemRequest[]; metadata: Record<string, string>; trialDays?: number },
): StripeObject {
  const now = store.now();
  const id = store.newId("sub_");
  const trialEnd = request.trialDays ? now + request.trialDays * 86_400 : null;
  const items = request.items.map((item) => subscriptionItem(store, id, item, now, trialEnd ?? addInterval(now, item.price.recurring)));
  const subscription = store.put({
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: trialEnd ?? now,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: now },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: now,
    currency: request.items[0]?.price.currency,
    customer: request.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
    items: embeddedList(items, `/v1/subscription_items?subscription=${id}`),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: { ...request.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: trialEnd ? "trialing" : "active",
    test_clock: null,
    transfer_data: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: trialEnd ? now : null,
  });
  const invoice = issueInvoice(store, {
    subscription,
    billingReason: "subscription_create",
    period: { start: now, end: now },
    outcome: "paid",
    trial: trialEnd !== null,
  });
  subscription.latest_invoice = invoice.id;
  store.emit("customer.subscription.created", subscription);
  store.emit("invoice.paid", invoice);
  return subscription;
}

/** The top-level fields that changed, with their old values: Stripe's `data.previous_attributes`. */
export function previousAttributes(before: StripeObject, after: StripeObject): StripeObject {
  const previous: StripeObject = {};
  for (const key of Object.keys(before)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous;
}

export function assertNotCanceled(subscription: StripeObject) {
  if (subscription.status === "canceled")
    throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.");
}

export function setCancelAtPeriodEnd(store: StripeStore, subscription: StripeObject, cancel: boolean) {
  subscription.cancel_at_period_end = cancel;
  subscription.cancel_at = cancel ? currentPeriodEnd(subscription) : null;
  subscription.canceled_at = cancel ? store.now() : null;
  subscription.cancellation_details = { comment: null, feedback: null, reason: cancel ? "cancellation_requested" : null };
}

/** Puts `price` on the item; when the billing interval changes the period restarts now and is invoiced at once, as Stripe does. */
export function switchPrice(
  store: StripeStore,
  subscription: StripeObject,
  item: StripeObject,
  price: StripeObject,
  param: string,
): boolean {
  if (price.type !== "recurring")
    throw invalidRequest("The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.", {
      param,
    });
  if (price.currency !== subscription.currency)
    throw invalidRequest(
      `The price specified uses currency \`${price.currency}\`, which does not match the subscription's currency \`${subscription.currency}\`.`,
      { param },
    );
  const old = item.price.recurring;
  const intervalChanged = old.interval !== price.recurring.interval || old.interval_count !== price.recurring.interval_count;
  item.price = structuredClone(price);
  item.plan = planOf(price);
  if (!intervalChanged) return false;
  const now = store.now();
  for (const each of subscription.items.data as StripeObject[]) {
    each.current_period_start = now;
    each.current_period_end = addInterval(now, each.price.recurring);
  }
  subscription.billing_cycle_anchor = now;
  if (subscription.cancel_at_period_end) subscription.cancel_at = currentPeriodEnd(subscription);
  return true;
}

/** Sends `customer.subscription.updated` (when something changed) and, after a period restart, the invoice for the new period. */
export function finishUpdate(store: StripeStore, subscription: StripeObject, before: StripeObject, periodRestarted: boolean) {
  let invoice: StripeObject | null = null;
  if (periodRestarted) {
    const now = store.now();
    invoice = issueInvoice(store, {
      subscription,
      billingReason: "subscription_update",
      period: { start: now, end: now },
      outcome: "paid",
    });
    subscription.latest_invoice = invoice.id;
  }
  const previous = previousAttributes(before, subscription);
  if (Object.keys(previous).length > 0) store.emit("customer.subscription.updated", subscription, previous);
  if (invoice) store.emit("invoice.paid", invoice);
}

export function cancelNow(store: StripeStore, subscription: StripeObject, comment: string | null = null): StripeObject {
  if (subscription.status === "canceled") throw invalidRequest(`This subscription has already been canceled: '${subscription.id}'`);
  const now = store.now();
  subscription.status = "canceled";
  subscription.canceled_at = now;
  subscription.ended_at = now;
  subscription.cancel_at = null;
  subscription.cancel_at_period_end = false;
  subscription.cancellation_details = { comment, feedback: null, reason: "cancellation_requested" };
  store.emit("customer.subscription.deleted", subscription);
  return subscription;
}

export function currentPeriodEnd(subscription: StripeObject): number {
  return Math.max(...(subscription.items.data as StripeObject[]).map((item) => item.current_period_end as number));
}

/** The test clock reaches the period end: the subscription ends (cancel at period end) or starts a new period, paid or declined. */
export function renew(store: StripeStore, subscription: StripeObject, outcome: "paid" | "declined"): StripeObject {
  if (subscription.status === "canceled") throw invalidRequest(`The subscription '${subscription.id}' is canceled.`);
  const end = currentPeriodEnd(subscription);
  store.advanceTo(end);
  if (subscription.cancel_at_period_end) {
    subscription.status = "canceled";
    subscription.ended_at = end;
    subscription.cancel_at_period_end = false;
    store.emit("customer.subscription.deleted", subscription);
    return subscription;
  }
  const before = structuredClone(subscription);
  const items = subscription.items.data as StripeObject[];
  const pastPeriod = { start: Math.min(...items.map((item) => item.current_period_start as number)), end };
  for (const item of items) {
    item.current_period_start = item.current_period_end;
    item.current_period_end = addInterval(item.current_period_start, item.price.recurring);
  }
  if (subscription.cancel_at_period_end) subscription.cancel_at = currentPeriodEnd(subscription);
  subscription.status = outcome === "paid" ? "active" : "past_due";
  const invoice = issueInvoice(store, { subscription, billingReason: "subscription_cycle", period: pastPeriod, outcome });
  subscription.latest_invoice = invoice.id;
  store.emit(outcome === "paid" ? "invoice.paid" : "invoice.payment_failed", invoice);
  store.emit("customer.subscription.updated", subscription, previousAttributes(before, subscription));
  return subscription;
}

import type Stripe from "stripe";
import { recordActivity } from "../activity/record-activity";
import { addCredits } from "../credits/add-credits";
import { millisToDecimalString } from "../base/money";
import type { Tx } from "../base/db";
import { idOf } from "./account-lookup";
import { notifyPrimaryOwner } from "./notify-primary-owner";
import { parseLookupKey, periodCreditsMillis } from "./price-catalog";
import { subscriptionOfInvoice, syncSubscription } from "./sync-subscription";
import type { EventOutcome } from "./events/event-outcome";

// Subscription invoices. A paid invoice that bills a plan's period (the first one, a renewal, or
// a switch of interval, which starts a new period) adds the plan's credits for its interval as
// one `add` keyed by the invoice id, in the same transaction as its activity (a trial's $0 invoice
// adds none: credits come with the first paid period): a replayed or
// duplicated invoice.paid adds nothing. An invoice of prorations only (a mid-period plan change)
// adds none: the next period brings the new plan's credits. A failed payment notifies the
// primary owner.

const formatMoney = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

async function invoicePlan(stripe: Stripe, invoice: Stripe.Invoice) {
  for (const line of invoice.lines.data) {
    const price = line.pricing?.price_details?.price;
    if (!price || line.parent?.subscription_item_details?.proration) continue;
    const resolved = typeof price === "string" ? await stripe.prices.retrieve(price) : price;
    const item = parseLookupKey(resolved.lookup_key);
    if (item?.kind === "plan") return item;
  }
  return null;
}

export async function applyInvoicePaid(tx: Tx, stripe: Stripe, invoiceId: string): Promise<EventOutcome> {
  const invoice = await stripe.invoices.retrieve(invoiceId);
  const ref = subscriptionOfInvoice(invoice);
  if (!ref) return { action: "invoice without a subscription: nothing to do" };
  const synced = await syncSubscription(tx, stripe, ref);
  if (!synced) return { action: "invoice of no known account or plan" };
  if (invoice.status !== "paid") return { action: `invoice is ${invoice.status}` };
  const { accountId } = synced;
  const item = await invoicePlan(stripe, invoice);
  const paid = formatMoney(invoice.amount_paid, invoice.currency);
  const number = invoice.number ?? invoice.id;
  if (!item) {
    const recorded = await tx.activityEvent.findFirst({
      where: { accountId, action: "billing.invoice_paid", metadata: { path: ["invoice_id"], equals: invoice.id } },
      select: { id: true },
    });
    if (!recorded) {
      await recordActivity(tx, {
        accountId,
        actor: "system",
        category: "billing",
        action: "billing.invoice_paid",
        description: `Invoice ${number} paid (${paid}); prorations only, no credits`,
        metadata: { invoice_id: invoice.id },
      });
    }
    return { action: "invoice paid, no plan period billed" };
  }
  if (invoice.amount_paid <= 0) {
    // A trial's (or a fully discounted) invoice: the plan applies, its credits come with the first paid period.
    return { action: "nothing paid: no credits" };
  }
  const amountMillis = periodCreditsMillis(item.plan, item.interval);
  const credited = await addCredits(tx, {
    accountId,
    amountMillis,
    sourceKey: `invoice:${invoice.id}`,
    description: `${item.plan[0]!.toUpperCase()}${item.plan.slice(1)} plan, ${item.interval === "year" ? "yearly" : "monthly"} credits (invoice ${number})`,
  });
  if (!credited.applied) return { action: "invoice already credited" };
  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "billing",
    action: "billing.invoice_paid",
    description: `Invoice ${number} paid (${paid}): ${millisToDecimalString(amountMillis)} credits added`,
    metadata: {
      invoice_id: invoice.id,
      stripe_subscription_id: ref.id,
      plan: item.plan,
      interval: item.interval,
      amount_paid: invoice.amount_paid,
      currency: invoice.currency,
    },
  });
  return { action: `credited ${millisToDecimalString(amountMillis)}` };
}

export async function applyInvoicePaymentFailed(tx: Tx, stripe: Stripe, invoiceId: string): Promise<EventOutcome> {
  const invoice = await stripe.invoices.retrieve(invoiceId);
  const ref = subscriptionOfInvoice(invoice);
  const synced = ref ? await syncSubscription(tx, stripe, ref) : null;
  if (!synced) return { action: "failed invoice of no known subscription" };
  const number = invoice.number ?? invoice.id;
  const due = formatMoney(invoice.amount_due, invoice.currency);
  await recordActivity(tx, {
    accountId: synced.accountId,
    actor: "system",
    category: "billing",
    action: "billing.payment_failed",
    description: `Payment of invoice ${number} (${due}) failed; the subscription is ${synced.status}`,
    metadata: { invoice_id: invoice.id, customer: idOf(invoice.customer), attempt_count: invoice.attempt_count },
  });
  const notice = await notifyPrimaryOwner(tx, {
    accountId: synced.accountId,
    kind: "billing.payment_failed",
    title: "Payment failed",
    lines: [
      `Stripe could not collect ${due} for invoice ${number}.`,
      "Stripe retries the payment; update the payment method in Manage billing to keep the plan. If every retry fails, the account returns to Free.",
    ],
  });
  return { action: "payment failure recorded", emailIds: notice.emailId ? [notice.emailId] : [] };
}

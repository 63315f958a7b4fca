import type Stripe from "stripe";
import { recordActivity } from "../../activity/record-activity";
import type { Tx } from "../../base/db";
import { idOf, lockAccount, resolveAccount } from "../account-lookup";
import type { EventOutcome } from "../events/event-outcome";
import { notifyPrimaryOwner } from "../notify-primary-owner";
import { lockOrder, orderLabel } from "./lock-order";

// Refunds and disputes reported by Stripe. A pack order records its new state (`refunded` when
// fully refunded, `disputed`), an activity event and a notice to the primary owner. Credits the
// pack added stay on the balance: nothing is clawed back, so a balance never goes below zero for
// credits already spent (docs/billing.md). A subscription payment's refund or dispute is recorded
// as `billing` activity with the same notice.

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
const CREDITS_STAY = "Credits it added stay on the balance.";

export async function applyChargeRefunded(tx: Tx, stripe: Stripe, chargeId: string): Promise<EventOutcome> {
  const charge = await stripe.charges.retrieve(chargeId);
  const paymentIntentId = idOf(charge.payment_intent);
  const order = paymentIntentId ? await lockOrder(tx, { stripePaymentIntentId: paymentIntentId }) : null;
  const refunded = money(charge.amount_refunded, charge.currency);
  if (order) {
    if (order.status === "rejected" || order.status === "refunded") {
      if (!order.refundedAt) await tx.order.update({ where: { id: order.id }, data: { refundedAt: new Date() } });
      return { action: `refund of a ${order.status} order recorded` };
    }
    const full = charge.refunded;
    if (full) await tx.order.update({ where: { id: order.id }, data: { status: "refunded", refundedAt: new Date() } });
    await recordActivity(tx, {
      accountId: order.accountId,
      actor: "system",
      category: "order",
      action: full ? "order.refunded" : "order.partially_refunded",
      description: `${orderLabel(order)}: ${refunded} refunded${full ? "" : " (partial)"}. ${CREDITS_STAY}`,
      metadata: { order_id: order.id, charge_id: charge.id, amount_refunded: charge.amount_refunded },
    });
    const notice = await notifyPrimaryOwner(tx, {
      accountId: order.accountId,
      kind: "order.refunded",
      title: "Credit pack refunded",
      lines: [`${refunded} of your ${orderLabel(order)} was refunded.`, CREDITS_STAY],
    });
    return { action: full ? "order refunded" : "order partially refunded", emailIds: notice.emailId ? [notice.emailId] : [] };
  }
  const accountId = await resolveAccount(tx, { claimedAccount: null, customer: charge.customer });
  if (!accountId) return { action: "refund of no known account" };
  await lockAccount(tx, accountId);
  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "billing",
    action: "billing.refunded",
    description: `Payment ${charge.id} refunded (${refunded}). ${CREDITS_STAY}`,
    metadata: { charge_id: charge.id },
  });
  const notice = await notifyPrimaryOwner(tx, {
    accountId,
    kind: "billing.refunded",
    title: "Payment refunded",
    lines: [`Stripe refunded ${refunded} of payment ${charge.id}.`, CREDITS_STAY],
  });
  return { action: "subscription payment refunded", emailIds: notice.emailId ? [notice.emailId] : [] };
}

export async function applyDisputeCreated(tx: Tx, stripe: Stripe, dispute: Stripe.Dispute): Promise<EventOutcome> {
  const charge = await stripe.charges.retrieve(idOf(dispute.charge) ?? "");
  const paymentIntentId = idOf(charge.payment_intent);
  const order = paymentIntentId ? await lockOrder(tx, { stripePaymentIntentId: paymentIntentId }) : null;
  const amount = money(dispute.amount, dispute.currency);
  const accountId = order?.accountId ?? (await resolveAccount(tx, { claimedAccount: null, customer: charge.customer }));
  if (!accountId) return { action: "dispute of no known account" };
  if (order) {
    if (order.status === "disputed") return { action: "order already disputed" };
    await tx.order.update({ where: { id: order.id }, data: { status: "disputed" } });
    await recordActivity(tx, {
      accountId,
      actor: "system",
      category: "order",
      action: "order.disputed",
      description: `${orderLabel(order)}: payment disputed (${amount}, ${dispute.reason})`,
      metadata: { order_id: order.id, dispute_id: dispute.id },
    });
  } else {
    await lockAccount(tx, accountId);
    await recordActivity(tx, {
      accountId,
      actor: "system",
      category: "billing",
      action: "billing.dispute_created",
      description: `Payment ${charge.id} disputed (${amount}, ${dispute.reason})`,
      metadata: { charge_id: charge.id, dispute_id: dispute.id },
    });
  }
  const notice = await notifyPrimaryOwner(tx, {
    accountId,
    kind: "billing.dispute_created",
    title: "Payment disputed",
    lines: [
      `A payment of ${amount} was disputed with your bank (${dispute.reason}).`,
      "Stripe holds the amount while the dispute is open. Contact us if this was a mistake.",
    ],
  });
  return { action: order ? "order disputed" : "subscription payment disputed", emailIds: notice.emailId ? [notice.emailId] : [] };
}

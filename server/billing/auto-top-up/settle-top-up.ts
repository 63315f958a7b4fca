import type Stripe from "stripe";
import { recordActivity } from "../../activity/record-activity";
import type { Tx } from "../../base/db";
import { decimalToMillis, formatCredits } from "../../base/money";
import { addCredits } from "../../credits/add-credits";
import { getBalance } from "../../ledger/get-balance";
import { allowsPacks } from "../../plans/subscription-status";
import { queueWebhookEvent } from "../../webhooks/emit-webhook-event";
import { lockAccount } from "../account-lookup";
import type { EventOutcome } from "../events/event-outcome";
import { notifyPrimaryOwner } from "../notify-primary-owner";
import { syncSubscription } from "../sync-subscription";
import { lockOrder } from "../orders/lock-order";
import { holdForReview } from "../orders/hold-for-review";
import { isGuid } from "../../base/guid";

// How a top-up ends, each under the account's and the order's row locks, each a no-op on an
// order that already ended (the webhook, the function and the sweep may all report one payment):
// - paid (payment_intent.succeeded, or the PaymentIntent the sweep re-read): one `add` keyed by
//   the PaymentIntent, order `fulfilled`, declines cleared; paid while the subscription is not
//   active: held for review, as a pack is;
// - declined: order `failed`; the third decline in a row pauses auto top-up;
// - the bank wants the cardholder: order `requires_action`, auto top-up paused, the owner e-mailed
//   a link to pay it on Stripe's page (no retry).
// Each tells the primary owner (in-app and e-mail), and the account's endpoints by webhook.

export const TOP_UP_PURPOSE = "auto_top_up";
export const MAX_CONSECUTIVE_FAILURES = 3;
/** A payment landed on these already (a declined order may still be paid by the cardholder's link). */
const PAID: string[] = ["fulfilled", "manual_review", "rejected", "refunded", "disputed"];

const topUpLabel = (order: { id: string; credits: { toFixed(): string } }) =>
  `auto top-up of ${formatCredits(decimalToMillis(order.credits))} credits (order ${order.id.slice(0, 8)})`;

async function lockTopUp(tx: Tx, orderId: string) {
  if (!isGuid(orderId)) return null;
  const found = await tx.order.findUnique({ where: { id: orderId }, select: { accountId: true, kind: true } });
  if (!found || found.kind !== "auto_top_up") return null;
  await lockAccount(tx, found.accountId);
  return lockOrder(tx, { id: orderId });
}

export async function fulfilTopUp(tx: Tx, stripe: Stripe, paymentIntent: Stripe.PaymentIntent): Promise<EventOutcome> {
  const orderId = paymentIntent.metadata?.order_id;
  if (!orderId || paymentIntent.metadata?.purpose !== TOP_UP_PURPOSE) return { action: "payment of no auto top-up" };
  if (paymentIntent.status !== "succeeded") return { action: `PaymentIntent ${paymentIntent.status}` };
  const order = await lockTopUp(tx, orderId);
  if (!order) return { action: "paid auto top-up with no order" };
  if (PAID.includes(order.status)) return { action: `order already ${order.status}` };
  const { accountId } = order;
  const stored = await tx.subscription.findUnique({ where: { accountId }, select: { stripeSubscriptionId: true, status: true } });
  const current = stored?.stripeSubscriptionId
    ? ((await syncSubscription(tx, stripe, { id: stored.stripeSubscriptionId, customer: paymentIntent.customer }))?.status ?? stored.status)
    : stored?.status;
  const label = topUpLabel(order);
  await tx.order.update({ where: { id: order.id }, data: { stripePaymentIntentId: paymentIntent.id } });
  if (!allowsPacks(current))
    return holdForReview(tx, {
      order,
      label,
      subscription: current ?? "absent",
      paidWith: { payment_intent_id: paymentIntent.id },
      title: "Auto top-up waiting for review",
      lines: [
        `Your ${label} was paid after the subscription stopped being active, so its credits were not added automatically.`,
        "An operator reviews it: approved, the credits are added; rejected, the payment is refunded.",
      ],
    });
  await addCredits(tx, {
    accountId,
    amountMillis: decimalToMillis(order.credits),
    sourceKey: `payment_intent:${paymentIntent.id}`,
    description: `Auto top-up (order ${order.id.slice(0, 8)})`,
  });
  await tx.order.update({ where: { id: order.id }, data: { status: "fulfilled", fulfilledAt: new Date(), failureReason: null } });
  // A payment the cardholder completed resumes a top-up paused for it; any success clears the declines.
  const setting = await tx.autoTopUp.findUnique({ where: { accountId }, select: { pauseReason: true } });
  await tx.autoTopUp.updateMany({
    where: { accountId },
    data: {
      consecutiveFailures: 0,
      lastFailureReason: null,
      lastFailureAt: null,
      ...(setting?.pauseReason === "authentication_required" ? { pausedAt: null, pauseReason: null } : {}),
    },
  });
  const balance = formatCredits(await getBalance(tx, accountId));
  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "billing",
    action: "auto_top_up.succeeded",
    description: `${label} paid and credited`,
    metadata: { order_id: order.id, payment_intent_id: paymentIntent.id, amount_cents: order.amountCents, balance },
  });
  await queueWebhookEvent(tx, {
    accountId,
    event: "credits.auto_top_up_succeeded",
    eventKey: `credits.auto_top_up_succeeded:${order.id}`,
    data: {
      account_id: accountId,
      order_id: order.id,
      credits: formatCredits(decimalToMillis(order.credits)),
      amount: order.amountCents / 100,
      currency: order.currency,
      current_balance: balance,
    },
  });
  return { action: "auto top-up fulfilled" };
}

export type Decline = { code: string; message: string; paymentIntentId: string | null };

export async function recordTopUpFailure(tx: Tx, orderId: string, decline: Decline): Promise<EventOutcome> {
  const order = await lockTopUp(tx, orderId);
  if (!order || order.status !== "processing") return { action: `order ${order?.status ?? "missing"}: nothing to record` };
  const { accountId } = order;
  const now = new Date();
  const reason = `${decline.message} (${decline.code})`;
  await tx.order.update({
    where: { id: order.id },
    data: { status: "failed", failureReason: reason, stripePaymentIntentId: decline.paymentIntentId ?? order.stripePaymentIntentId },
  });
  const setting = await tx.autoTopUp.update({
    where: { accountId },
    data: { consecutiveFailures: { increment: 1 }, lastFailureReason: reason, lastFailureAt: now },
    select: { consecutiveFailures: true },
  });
  const paused = setting.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES;
  if (paused)
    await tx.autoTopUp.update({
      where: { accountId },
      data: { pausedAt: now, pauseReason: `${MAX_CONSECUTIVE_FAILURES} declines in a row: ${decline.message}` },
    });
  const label = topUpLabel(order);
  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "billing",
    action: paused ? "auto_top_up.paused" : "auto_top_up.failed",
    description: `${label} declined: ${reason}${paused ? `; auto top-up paused after ${MAX_CONSECUTIVE_FAILURES} declines in a row` : ""}`,
    metadata: { order_id: order.id, code: decline.code, consecutive_failures: setting.consecutiveFailures, paused },
  });
  const emailIds = await tellFailure(tx, order, {
    reason: decline.code,
    message: decline.message,
    paused,
    lines: [
      `Your card was declined for the ${label}: ${decline.message}`,
      paused
        ? `Auto top-up is paused after ${MAX_CONSECUTIVE_FAILURES} declines in a row; save a new card on the billing page to turn it back on.`
        : `The next top-up is tried when the balance falls below your threshold again, after the cooldown; ${MAX_CONSECUTIVE_FAILURES} declines in a row pause it.`,
    ],
  });
  return { action: paused ? "auto top-up declined and paused" : "auto top-up declined", emailIds };
}

export async function recordNeedsAuthentication(
  tx: Tx,
  orderId: string,
  input: { paymentIntentId: string | null; payUrl: string; checkoutSessionId: string },
): Promise<EventOutcome> {
  const order = await lockTopUp(tx, orderId);
  if (!order || order.status !== "processing") return { action: `order ${order?.status ?? "missing"}: nothing to record` };
  const { accountId } = order;
  const now = new Date();
  const reason = "Your bank asks you to confirm this payment (authentication_required).";
  await tx.order.update({
    where: { id: order.id },
    data: {
      status: "requires_action",
      failureReason: reason,
      stripePaymentIntentId: input.paymentIntentId,
      stripeCheckoutSessionId: input.checkoutSessionId,
    },
  });
  await tx.autoTopUp.update({
    where: { accountId },
    data: { pausedAt: now, pauseReason: "authentication_required", lastFailureReason: reason, lastFailureAt: now },
  });
  const label = topUpLabel(order);
  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "billing",
    action: "auto_top_up.paused",
    description: `${label}: the bank wants the cardholder to confirm it; auto top-up paused until it is paid`,
    metadata: { order_id: order.id, code: "authentication_required", checkout_session_id: input.checkoutSessionId },
  });
  const emailIds = await tellFailure(tx, order, {
    reason: "authentication_required",
    message: reason,
    paused: true,
    lines: [
      `Your bank wants you to confirm the ${label} before it is charged.`,
      `Confirm and pay it on Stripe's secure page: ${input.payUrl}`,
      "Auto top-up is paused until then, and resumes once the payment goes through.",
    ],
  });
  return { action: "auto top-up needs the cardholder", emailIds };
}

/** Not attempted (the cap, the subscription, turned off): the order `canceled`; told once a month per reason. */
export async function cancelTopUp(
  tx: Tx,
  order: { id: string; accountId: string; credits: { toFixed(): string } },
  why: { reason: string; message: string; tell: boolean },
) {
  await tx.order.update({ where: { id: order.id }, data: { status: "canceled", failureReason: why.reason } });
  await recordActivity(tx, {
    accountId: order.accountId,
    actor: "system",
    category: "billing",
    action: "auto_top_up.skipped",
    description: `${topUpLabel(order)} not attempted: ${why.message}`,
    metadata: { order_id: order.id, reason: why.reason },
  });
  if (!why.tell) return [];
  return tellFailure(tx, order, { reason: why.reason, message: why.message, paused: false, lines: [why.message] });
}

async function tellFailure(
  tx: Tx,
  order: { id: string; accountId: string; credits: { toFixed(): string } },
  failure: { reason: string; message: string; paused: boolean; lines: string[] },
): Promise<string[]> {
  const notice = await notifyPrimaryOwner(tx, {
    accountId: order.accountId,
    kind: "billing.auto_top_up_failed",
    title: failure.paused ? "Auto top-up paused" : "Auto top-up did not go through",
    lines: failure.lines,
  });
  await queueWebhookEvent(tx, {
    accountId: order.accountId,
    event: "credits.auto_top_up_failed",
    eventKey: `credits.auto_top_up_failed:${order.id}`,
    data: {
      account_id: order.accountId,
      order_id: order.id,
      credits: formatCredits(decimalToMillis(order.credits)),
      reason: failure.reason,
      message: failure.message,
      auto_top_up_paused: failure.paused,
      current_balance: formatCredits(await getBalance(tx, order.accountId)),
    },
  });
  return notice.emailId ? [notice.emailId] : [];
}

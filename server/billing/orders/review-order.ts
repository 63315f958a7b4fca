import { scopeWhere, type AccountScope } from "../../base/account-scope";
import { recordActivity } from "../../activity/record-activity";
import { addCredits } from "../../credits/add-credits";
import { decimalToMillis } from "../../base/money";
import type { Db, Tx } from "../../base/db";
import { ApiError, invalidRequest } from "../../base/error-table";
import { notifyPrimaryOwner } from "../notify-primary-owner";
import { stripeClient } from "../stripe-client";
import { lockOrder, orderLabel } from "./lock-order";
import { isGuid } from "../../base/guid";

// The operator's review of a pack paid while the subscription was not active (`order:approve`,
// `order:reject`). Approve adds the credits once (keyed by the Checkout session, like an automatic
// fulfilment); reject refunds the payment through Stripe (idempotency key per order) and marks
// the order `rejected`. Either repeated returns the order as it is.

export type ReviewedOrder = { order_id: string; status: string; credits: string; account_id: string; refund_id?: string | null };

function orderId(value: string) {
  if (!isGuid(value)) throw invalidRequest("--order must be a UUID.", [{ field: "order", message: "must be a UUID" }]);
  return value;
}

const view = (order: {
  id: string;
  status: string;
  credits: { toString(): string };
  accountId: string;
  stripeRefundId: string | null;
}): ReviewedOrder => ({
  order_id: order.id,
  status: order.status,
  credits: order.credits.toString(),
  account_id: order.accountId,
  refund_id: order.stripeRefundId,
});

function notReviewable(order: { id: string; status: string }) {
  return invalidRequest(`Order ${order.id} is ${order.status}; only orders in manual_review can be reviewed.`, [
    { field: "order", message: `is ${order.status}` },
  ]);
}

export async function approveOrder(tx: Tx, value: string): Promise<ReviewedOrder> {
  const order = await lockOrder(tx, { id: orderId(value) });
  if (!order) throw new ApiError("ERR1006", "Order not found.", { order_id: value });
  if (order.status === "fulfilled") return view(order);
  // The source its credits would have had: a pack's Checkout, an auto top-up's PaymentIntent.
  const source =
    order.kind === "auto_top_up"
      ? order.stripePaymentIntentId && `payment_intent:${order.stripePaymentIntentId}`
      : order.stripeCheckoutSessionId && `checkout:${order.stripeCheckoutSessionId}`;
  if (order.status !== "manual_review" || !source) throw notReviewable(order);
  await addCredits(tx, {
    accountId: order.accountId,
    amountMillis: decimalToMillis(order.credits),
    sourceKey: source,
    description: `${orderLabel(order)}, approved`,
  });
  const updated = await tx.order.update({ where: { id: order.id }, data: { status: "fulfilled", fulfilledAt: new Date() } });
  await recordActivity(tx, {
    accountId: order.accountId,
    actor: "system",
    category: "order",
    action: "order.approved",
    description: `${orderLabel(order)} approved by an operator; credits added`,
    metadata: { order_id: order.id },
  });
  await notifyPrimaryOwner(tx, {
    accountId: order.accountId,
    kind: "order.approved",
    title: "Credit pack approved",
    lines: [`Your ${orderLabel(order)} was approved and its credits were added.`],
  });
  return view(updated);
}

/** A rejection: the order as it stands when nothing is left to do, else the refund to send. */
export type OrderRejection = { reviewed: ReviewedOrder } | { refund: { orderId: string; accountId: string; paymentIntent: string } };

/**
 * The order is marked `rejected` first (in the caller's transaction), then refunded once that
 * committed (refundRejectedOrder): Stripe's `charge.refunded` for this refund then finds it
 * rejected and only records the time. A refund that failed (the order is rejected without a refund
 * id) is sent again by running the command again, under the same idempotency key.
 */
export async function rejectOrder(tx: Tx, value: string): Promise<OrderRejection> {
  const id = orderId(value);
  const found = await tx.order.findUnique({ where: { id } });
  if (!found) throw new ApiError("ERR1006", "Order not found.", { order_id: value });
  if (found.status === "rejected" && found.stripeRefundId) return { reviewed: view(found) };
  if ((found.status !== "manual_review" && found.status !== "rejected") || !found.stripePaymentIntentId) throw notReviewable(found);
  const refund = { orderId: id, accountId: found.accountId, paymentIntent: found.stripePaymentIntentId };

  const order = await lockOrder(tx, { id });
  if (!order || order.status === "rejected") return { refund };
  if (order.status !== "manual_review") throw notReviewable(order);
  await tx.order.update({ where: { id }, data: { status: "rejected" } });
  await recordActivity(tx, {
    accountId: order.accountId,
    actor: "system",
    category: "order",
    action: "order.rejected",
    description: `${orderLabel(order)} rejected by an operator; its payment is refunded`,
    metadata: { order_id: order.id },
  });
  await notifyPrimaryOwner(tx, {
    accountId: order.accountId,
    kind: "order.rejected",
    title: "Credit pack refunded",
    lines: [`Your ${orderLabel(order)} was not approved; the payment is refunded to your card.`],
  });
  return { refund };
}

/** After the rejection committed: the refund through Stripe (idempotency key per order), then its id on the order. */
export async function refundRejectedOrder(db: Db, rejection: OrderRejection): Promise<ReviewedOrder> {
  if ("reviewed" in rejection) return rejection.reviewed;
  const { orderId: id, accountId, paymentIntent } = rejection.refund;
  const refund = await stripeClient().refunds.create(
    { payment_intent: paymentIntent, reason: "requested_by_customer", metadata: { order_id: id, account_id: accountId } },
    { idempotencyKey: `darkroom-order-reject-${id}` },
  );
  const updated = await db.order.update({ where: { id }, data: { stripeRefundId: refund.id } });
  if (!updated.refundedAt) return view(await db.order.update({ where: { id }, data: { refundedAt: new Date() } }));
  return view(updated);
}

export async function listOrders(db: Db, scope: AccountScope, filter: { status?: string; take?: number }) {
  const rows = await db.order.findMany({
    where: { ...scopeWhere(scope), ...(filter.status ? { status: filter.status as never } : {}) },
    orderBy: { createdAt: "desc" },
    take: filter.take ?? 200,
  });
  return rows.map((order) => ({
    order_id: order.id,
    account_id: order.accountId,
    status: order.status,
    credits: order.credits.toString(),
    amount_cents: order.amountCents,
    currency: order.currency,
    review_reason: order.reviewReason,
    created_at: order.createdAt.toISOString(),
  }));
}

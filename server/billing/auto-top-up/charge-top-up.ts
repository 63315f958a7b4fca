import type Stripe from "stripe";
import { recordActivity } from "../../activity/record-activity";
import { db } from "../../base/db";
import { inTransaction } from "../../base/transaction";
import { isGuid } from "../../base/guid";
import { allowsPacks } from "../../plans/subscription-status";
import { lockAccount } from "../account-lookup";
import { billingPageUrl } from "../billing-urls";
import type { EventOutcome } from "../events/event-outcome";
import { lockOrder } from "../orders/lock-order";
import { packLookupKey, type PackSize } from "../price-catalog";
import { stripeClient } from "../stripe-client";
import { findCatalogPrice } from "../stripe-prices";
import { monthlySpentCents, monthStart } from "./monthly-spend";
import { cancelTopUp, recordNeedsAuthentication, recordTopUpFailure, TOP_UP_PURPOSE } from "./settle-top-up";

// The auto-top-up function's two steps. `decide`, one transaction under the account's lock: the
// order still pending, the setting on, a card, an active subscription, the monthly cap (what this
// month's top-ups spent plus this one) → the order `processing` and the attempt's time (the
// cooldown); otherwise the order `canceled` and, once a month per reason, the owner told.
// `charge`, outside any transaction: the PaymentIntent, off-session and confirmed at once, with the
// order's id as Stripe's idempotency key (a retried step, a restarted server or the sweep charges
// once), then the decline or the bank's request recorded. Credits wait for Stripe's
// payment_intent.succeeded (settle-top-up.ts), or for the sweep that re-reads the PaymentIntent.

export type Charge = {
  orderId: string;
  accountId: string;
  amountCents: number;
  currency: string;
  credits: number;
  customer: string;
  paymentMethodId: string;
};

export type Decision = { charge: Charge } | { skipped: string; emailIds: string[] };

export async function decideTopUp(orderId: string, now = new Date()): Promise<Decision> {
  if (!isGuid(orderId)) return { skipped: "no such auto top-up order", emailIds: [] };
  return inTransaction(async (tx) => {
    const found = await tx.order.findUnique({ where: { id: orderId }, select: { accountId: true, kind: true } });
    if (!found || found.kind !== "auto_top_up") return { skipped: "no such auto top-up order", emailIds: [] };
    await lockAccount(tx, found.accountId);
    const order = await lockOrder(tx, { id: orderId });
    if (!order) return { skipped: "no such auto top-up order", emailIds: [] };
    const { accountId } = order;
    const [setting, account, subscription] = await Promise.all([
      tx.autoTopUp.findUnique({ where: { accountId } }),
      tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { stripeCustomerId: true } }),
      tx.subscription.findUnique({ where: { accountId }, select: { status: true } }),
    ]);
    const charge = (): Charge => ({
      orderId,
      accountId,
      amountCents: order.amountCents,
      currency: order.currency,
      credits: Number(order.credits.toFixed()),
      customer: account.stripeCustomerId ?? "",
      paymentMethodId: setting?.paymentMethodId ?? "",
    });
    // A step retried after its Stripe call: charge again under the same idempotency key.
    if (order.status === "processing" && !order.stripePaymentIntentId && setting?.paymentMethodId && account.stripeCustomerId)
      return { charge: charge() };
    if (order.status !== "pending") return { skipped: `order already ${order.status}`, emailIds: [] };

    const skip = async (reason: string, message: string) => {
      const told = await tx.order.count({
        where: {
          accountId,
          kind: "auto_top_up",
          status: "canceled",
          failureReason: reason,
          createdAt: { gte: monthStart(now) },
          id: { not: orderId },
        },
      });
      await tx.autoTopUp.updateMany({ where: { accountId }, data: { lastAttemptAt: now } });
      return { skipped: reason, emailIds: await cancelTopUp(tx, order, { reason, message, tell: told === 0 }) };
    };
    if (!setting?.enabled || setting.pausedAt) return skip("turned_off", "auto top-up is off or paused.");
    if (!setting.paymentMethodId || !account.stripeCustomerId) return skip("no_card", "no card is saved for auto top-up.");
    if (!allowsPacks(subscription?.status))
      return skip("subscription_inactive", "Auto top-up buys credit packs, which need an active subscription; no card was charged.");
    const spent = await monthlySpentCents(tx, accountId, now, orderId);
    if (spent + order.amountCents > setting.monthlyCapCents)
      return skip(
        "monthly_cap",
        `This top-up (${(order.amountCents / 100).toFixed(2)} ${order.currency.toUpperCase()}) would pass your monthly auto top-up cap of ${(setting.monthlyCapCents / 100).toFixed(2)} (spent this month: ${(spent / 100).toFixed(2)}); no card was charged. Raise the cap or buy a pack on the billing page.`,
      );
    await tx.order.update({ where: { id: orderId }, data: { status: "processing" } });
    await tx.autoTopUp.update({ where: { accountId }, data: { lastAttemptAt: now } });
    await recordActivity(tx, {
      accountId,
      actor: "system",
      category: "billing",
      action: "auto_top_up.started",
      description: `Auto top-up: charging ${(order.amountCents / 100).toFixed(2)} ${order.currency.toUpperCase()} for ${charge().credits} credits (card ending ${setting.cardLast4 ?? "····"})`,
      metadata: { order_id: orderId, amount_cents: order.amountCents, pack: setting.packCredits },
    });
    return { charge: charge() };
  });
}

type CardError = { type: string; code?: string; decline_code?: string; message: string; payment_intent?: Stripe.PaymentIntent };
const isCardError = (error: unknown): error is CardError => (error as { type?: string } | null)?.type === "StripeCardError";

export async function chargeTopUp(charge: Charge): Promise<EventOutcome> {
  const stripe = stripeClient();
  let paymentIntent: Stripe.PaymentIntent;
  try {
    paymentIntent = await stripe.paymentIntents.create(
      {
        amount: charge.amountCents,
        currency: charge.currency,
        customer: charge.customer,
        payment_method: charge.paymentMethodId,
        off_session: true,
        confirm: true,
        description: `Darkroom auto top-up: ${charge.credits} credits`,
        metadata: { account_id: charge.accountId, order_id: charge.orderId, purpose: TOP_UP_PURPOSE, pack_credits: String(charge.credits) },
      },
      { idempotencyKey: `darkroom-top-up-${charge.orderId}` },
    );
  } catch (error) {
    if (!isCardError(error)) throw error;
    const paymentIntentId = error.payment_intent?.id ?? null;
    if (error.code === "authentication_required") return askCardholder(stripe, charge, paymentIntentId);
    const message = error.payment_intent?.last_payment_error?.message ?? error.message;
    return inTransaction((tx) =>
      recordTopUpFailure(tx, charge.orderId, { code: error.decline_code ?? error.code ?? "card_declined", message, paymentIntentId }),
    );
  }
  if (paymentIntent.status === "requires_action") return askCardholder(stripe, charge, paymentIntent.id);
  await db.order.updateMany({
    where: { id: charge.orderId, stripePaymentIntentId: null },
    data: { stripePaymentIntentId: paymentIntent.id },
  });
  return { action: `PaymentIntent ${paymentIntent.status}: credits follow payment_intent.succeeded` };
}

/** The bank wants the cardholder: a Checkout for the same pack, its link e-mailed (Stripe's page handles the authentication). */
async function askCardholder(stripe: Stripe, charge: Charge, paymentIntentId: string | null): Promise<EventOutcome> {
  const price = await findCatalogPrice(stripe, { kind: "pack", credits: charge.credits as PackSize });
  const metadata = {
    account_id: charge.accountId,
    order_id: charge.orderId,
    purpose: TOP_UP_PURPOSE,
    pack_credits: String(charge.credits),
  };
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      customer: charge.customer,
      client_reference_id: charge.accountId,
      line_items: [{ price: price.priceId, quantity: 1 }],
      metadata,
      payment_intent_data: { metadata },
      success_url: billingPageUrl(charge.accountId, "top_up=paid&session_id={CHECKOUT_SESSION_ID}"),
      cancel_url: billingPageUrl(charge.accountId, "top_up=canceled"),
    },
    { idempotencyKey: `darkroom-top-up-confirm-${charge.orderId}` },
  );
  if (!session.url) throw new Error(`Stripe returned a Checkout session without a URL (${packLookupKey(charge.credits as PackSize)})`);
  return inTransaction((tx) =>
    recordNeedsAuthentication(tx, charge.orderId, { paymentIntentId, payUrl: session.url!, checkoutSessionId: session.id }),
  );
}

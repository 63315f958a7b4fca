import "server-only";
import type Stripe from "stripe";
import { db, type Tx } from "../../base/db";
import { inTransaction } from "../../base/transaction";
import { idOf, lockAccount, rememberCustomer, resolveAccount } from "../account-lookup";
import { applyInvoicePaid, applyInvoicePaymentFailed } from "../invoices";
import { expirePackOrder, fulfilPackOrder } from "../orders/fulfil-pack-order";
import { applyChargeRefunded, applyDisputeCreated } from "../orders/payment-reversals";
import { stripeClient } from "../stripe-client";
import { syncSubscription } from "../sync-subscription";
import type { EventOutcome } from "./event-outcome";
import { CARD_SETUP_PURPOSE, saveCardFromSetup } from "../auto-top-up/card-setup";
import { fulfilTopUp, recordTopUpFailure, TOP_UP_PURPOSE } from "../auto-top-up/settle-top-up";

// Applies one stored Stripe event, once: the event row is locked, its effects written, and
// processed_at set in one transaction. Each handler re-reads the object from Stripe, so the
// stored payload only says what to look at. A failure rolls everything back, counts the attempt
// and is thrown for Inngest to retry.

export const APPLY_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

async function checkoutCompleted(tx: Tx, stripe: Stripe, sessionId: string): Promise<EventOutcome> {
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  const accountId = await resolveAccount(tx, {
    claimedAccount: session.client_reference_id ?? session.metadata?.account_id ?? null,
    customer: session.customer,
  });
  if (!accountId) return { action: "Checkout of no known account" };
  await lockAccount(tx, accountId);
  await rememberCustomer(tx, accountId, session.customer);
  if (session.mode === "subscription" && session.subscription) {
    const id = typeof session.subscription === "string" ? session.subscription : session.subscription.id;
    const synced = await syncSubscription(tx, stripe, { id, metadata: { account_id: accountId }, customer: session.customer });
    return { action: synced ? `subscription ${synced.status}` : "subscription without a Darkroom plan" };
  }
  if (session.mode === "setup") {
    if (session.metadata?.purpose !== CARD_SETUP_PURPOSE) return { action: "setup Checkout not for auto top-up" };
    return saveCardFromSetup(tx, stripe, session, accountId);
  }
  if (session.mode === "payment") {
    if (session.payment_status !== "paid") return { action: `Checkout payment ${session.payment_status}` };
    // The page an auto top-up's cardholder confirmed a payment on (charge-top-up.ts, askCardholder).
    if (session.metadata?.purpose === TOP_UP_PURPOSE && session.payment_intent)
      return fulfilTopUp(tx, stripe, await stripe.paymentIntents.retrieve(idOf(session.payment_intent)!));
    return fulfilPackOrder(tx, stripe, session, accountId);
  }
  return { action: `Checkout mode ${session.mode}: nothing to do` };
}

/** A declined off-session top-up (the function records it too, from Stripe's answer: the first wins). */
async function paymentFailed(tx: Tx, paymentIntent: Stripe.PaymentIntent): Promise<EventOutcome> {
  const orderId = paymentIntent.metadata?.order_id;
  const error = paymentIntent.last_payment_error;
  if (paymentIntent.metadata?.purpose !== TOP_UP_PURPOSE || !orderId || !error) return { action: "failed payment of no auto top-up" };
  // The bank's request for the cardholder needs a Checkout link: the function's to make.
  if (error.code === "authentication_required") return { action: "auto top-up waits for the cardholder" };
  return recordTopUpFailure(tx, orderId, {
    code: error.decline_code ?? error.code ?? "card_declined",
    message: error.message ?? "The card was declined.",
    paymentIntentId: paymentIntent.id,
  });
}

async function handle(tx: Tx, stripe: Stripe, event: Stripe.Event): Promise<EventOutcome> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return checkoutCompleted(tx, stripe, event.data.object.id);
    case "checkout.session.expired":
      return expirePackOrder(tx, event.data.object);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed": {
      const object = event.data.object;
      const synced = await syncSubscription(tx, stripe, { id: object.id, metadata: object.metadata, customer: object.customer });
      return { action: synced ? `subscription ${synced.status}` : "subscription of no known account or plan" };
    }
    case "invoice.paid":
      return applyInvoicePaid(tx, stripe, event.data.object.id!);
    case "invoice.payment_failed":
      return applyInvoicePaymentFailed(tx, stripe, event.data.object.id!);
    case "payment_intent.succeeded":
      return fulfilTopUp(tx, stripe, await stripe.paymentIntents.retrieve(event.data.object.id));
    case "payment_intent.payment_failed":
      return paymentFailed(tx, await stripe.paymentIntents.retrieve(event.data.object.id));
    case "charge.refunded":
      return applyChargeRefunded(tx, stripe, event.data.object.id);
    case "charge.dispute.created":
      return applyDisputeCreated(tx, stripe, event.data.object);
    default:
      return { action: `${event.type}: not used` };
  }
}

export async function applyStripeEvent(stripeEventId: string): Promise<EventOutcome> {
  const stripe = stripeClient();
  try {
    return await inTransaction(async (tx) => {
      const [row] = await tx.$queryRaw<
        Array<{ processed_at: Date | null }>
      >`SELECT processed_at FROM stripe_event WHERE id = ${stripeEventId} FOR UPDATE`;
      if (!row) return { action: "no such stored event" };
      if (row.processed_at) return { action: "already applied" };
      const stored = await tx.stripeEvent.findUniqueOrThrow({ where: { id: stripeEventId }, select: { payload: true } });
      const outcome = await handle(tx, stripe, stored.payload as unknown as Stripe.Event);
      await tx.stripeEvent.update({ where: { id: stripeEventId }, data: { processedAt: new Date(), lastError: null } });
      return outcome;
    }, APPLY_TRANSACTION);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.stripeEvent
      .update({ where: { id: stripeEventId }, data: { attempts: { increment: 1 }, lastError: message.slice(0, 1000) } })
      .catch(() => undefined);
    throw error;
  }
}

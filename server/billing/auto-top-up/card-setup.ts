import type Stripe from "stripe";
import { recordActivity } from "../../activity/record-activity";
import type { OneAccount } from "../../base/account-scope";
import type { Db, Tx } from "../../base/db";
import { invalidRequest } from "../../base/error-table";
import { allowsPacks } from "../../plans/subscription-status";
import { idOf } from "../account-lookup";
import { billingPageUrl } from "../billing-urls";
import { stripeClient } from "../stripe-client";
import { ensureStripeCustomer } from "../stripe-customer";

// The card auto top-up charges: saved through Checkout in `setup` mode (a SetupIntent for
// off-session use), its brand, last four and expiry kept beside the setting. Saving a card turns
// the setting on and resumes it (new card: the old declines no longer count).

export const CARD_SETUP_PURPOSE = "auto_top_up_card";

export async function startCardSetup(
  db: Db,
  scope: OneAccount,
  input: { userId: string | null },
): Promise<{ url: string; sessionId: string }> {
  const { accountId } = scope;
  const subscription = await db.subscription.findUnique({ where: { accountId }, select: { status: true } });
  if (!allowsPacks(subscription?.status))
    throw invalidRequest("A card for auto top-up is saved on top of an active subscription; subscribe to a plan first.", [
      { field: "card", message: "needs an active subscription" },
    ]);
  const stripe = stripeClient();
  const customer = await ensureStripeCustomer(stripe, accountId);
  const metadata = { account_id: accountId, purpose: CARD_SETUP_PURPOSE, ...(input.userId ? { user_id: input.userId } : {}) };
  const session = await stripe.checkout.sessions.create({
    mode: "setup",
    customer,
    currency: "usd",
    client_reference_id: accountId,
    metadata,
    setup_intent_data: { metadata },
    success_url: billingPageUrl(accountId, "card=saved&session_id={CHECKOUT_SESSION_ID}"),
    cancel_url: billingPageUrl(accountId, "card=canceled"),
  });
  if (!session.url) throw new Error("Stripe returned a Checkout session without a URL");
  return { url: session.url, sessionId: session.id };
}

/** checkout.session.completed in setup mode: the SetupIntent's card becomes the auto top-up card. */
export async function saveCardFromSetup(tx: Tx, stripe: Stripe, session: Stripe.Checkout.Session, accountId: string) {
  const setupIntentId = idOf(session.setup_intent);
  if (!setupIntentId) return { action: "setup Checkout without a SetupIntent" };
  const intent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ["payment_method"] });
  if (intent.status !== "succeeded") return { action: `SetupIntent ${intent.status}` };
  const method = intent.payment_method && typeof intent.payment_method !== "string" ? intent.payment_method : null;
  if (!method) return { action: "SetupIntent without a payment method" };
  const card = method.card;
  const values = {
    paymentMethodId: method.id,
    cardBrand: card?.brand ?? method.type,
    cardLast4: card?.last4 ?? "····",
    cardExpMonth: card?.exp_month ?? null,
    cardExpYear: card?.exp_year ?? null,
  };
  const setting = await tx.autoTopUp.findUnique({ where: { accountId }, select: { paymentMethodId: true } });
  if (setting?.paymentMethodId === method.id) return { action: "card already saved" };
  if (!setting) return { action: "card saved before any auto top-up setting: nothing to attach it to" };
  await tx.autoTopUp.update({
    where: { accountId },
    data: { ...values, enabled: true, pausedAt: null, pauseReason: null, consecutiveFailures: 0 },
  });
  await recordActivity(tx, {
    accountId,
    actor: session.metadata?.user_id ?? "system",
    category: "billing",
    action: "auto_top_up.card_saved",
    description: `Card for auto top-up saved: ${values.cardBrand} ending ${values.cardLast4}; auto top-up is on`,
    metadata: { setup_intent_id: intent.id, brand: values.cardBrand, last4: values.cardLast4 },
  });
  return { action: "auto top-up card saved" };
}

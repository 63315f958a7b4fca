import { cardByMagicId, createCardPaymentMethod, outcomeOf } from "@/tests/fakes/stripe/cards";
import type { Params } from "@/tests/fakes/stripe/form";
import { mergeMetadata, optionalBoolean, optionalInteger, optionalString, requiredString, stringList } from "@/tests/fakes/stripe/params";
import { attachPaymentMethod } from "@/tests/fakes/stripe/payment-methods";
import { chargeOf, DECLINES, paymentIntentOf, type Decline } from "@/tests/fakes/stripe/payments";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import { cardError, docUrl, invalidRequest, missingParam } from "@/tests/fakes/stripe/stripe-errors";

// POST /v1/payment_intents (with `confirm=true` it is also confirmed) and POST
// /v1/payment_intents/:id/confirm: the card payment method decides — succeeded with a charge
// (`charge.succeeded`, `payment_intent.succeeded`), declined (402 card_error, `charge.failed`,
// `payment_intent.payment_failed`), or authentication required (402 off-session; `requires_action`
// on-session). A failed attempt leaves the intent in `requires_payment_method` with `last_payment_error`.

/** Stripe's minimum charge per currency, in the smallest unit. */
const MINIMUM_AMOUNTS: Record<string, { amount: number; symbol: string }> = {
  usd: { amount: 50, symbol: "$" },
  eur: { amount: 50, symbol: "€" },
  gbp: { amount: 30, symbol: "£" },
  cad: { amount: 50, symbol: "$" },
  aud: { amount: 50, symbol: "$" },
};

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];
const FUTURE_USAGES = ["on_session", "off_session"];

type Confirmation = { paymentMethod: StripeObject | null; offSession: boolean };

function createPaymentIntent(store: StripeStore, params: Params): StripeObject {
  const amount = optionalInteger(params, "amount");
  if (amount === undefined) throw missingParam("amount");
  const currency = requiredString(params, "currency").toLowerCase();
  checkAmount(amount, currency);
  const customerId = optionalString(params, "customer") || null;
  if (customerId) store.find("customer", customerId, "customer");
  const confirm = optionalBoolean(params, "confirm") ?? false;
  const offSession = offSessionParam(params);
  if (offSession !== undefined && !confirm)
    throw invalidRequest("You can only pass `off_session` when `confirm` is `true`.", { param: "off_session" });
  const setupFutureUsage = optionalString(params, "setup_future_usage") || null;
  if (setupFutureUsage && !FUTURE_USAGES.includes(setupFutureUsage))
    throw invalidRequest(`Invalid setup_future_usage: must be one of ${FUTURE_USAGES.join(", ")}`, { param: "setup_future_usage" });
  if (setupFutureUsage && offSession)
    throw invalidRequest(
      "You cannot confirm with the `off_session` parameter when `setup_future_usage` is also set on the PaymentIntent because you cannot set up future usages when processing payments off-session.",
      { param: "off_session" },
    );
  const paymentMethod = paymentMethodParam(store, params, customerId, offSession ?? false);
  const paymentIntent = paymentIntentOf(
    store,
    {
      amount,
      currency,
      customer: customerId,
      description: optionalString(params, "description") || null,
      metadata: mergeMetadata({}, params),
      receiptEmail: optionalString(params, "receipt_email") || null,
    },
    paymentMethod ? "requires_confirmation" : "requires_payment_method",
    paymentMethod?.id ?? null,
  );
  paymentIntent.amount_received = 0;
  // This API version names the list `allowed_payment_method_types`; the older `payment_method_types` is taken too.
  const allowedTypes = stringList(params, "allowed_payment_method_types");
  paymentIntent.allowed_payment_method_types = allowedTypes ?? null;
  paymentIntent.payment_method_types = allowedTypes ?? stringList(params, "payment_method_types") ?? ["card"];
  paymentIntent.setup_future_usage = setupFutureUsage;
  store.put(paymentIntent);
  store.emit("payment_intent.created", paymentIntent);
  if (!confirm) return paymentIntent;
  return confirmIntent(store, paymentIntent, { paymentMethod, offSession: offSession ?? false });
}

function confirmPaymentIntent(store: StripeStore, id: string, params: Params): StripeObject {
  const paymentIntent = store.find("payment_intent", id);
  if (!CONFIRMABLE.includes(paymentIntent.status))
    throw invalidRequest(
      `You cannot confirm this PaymentIntent because it has a status of ${paymentIntent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${CONFIRMABLE.join(", ")}.`,
      { code: "payment_intent_unexpected_state" },
    );
  const offSession = offSessionParam(params) ?? false;
  if (offSession && paymentIntent.setup_future_usage)
    throw invalidRequest(
      "You cannot confirm with the `off_session` parameter when `setup_future_usage` is also set on the PaymentIntent because you cannot set up future usages when processing payments off-session.",
      { param: "off_session" },
    );
  const given = paymentMethodParam(store, params, paymentIntent.customer, offSession);
  const current = paymentIntent.payment_method ? store.find("payment_method", paymentIntent.payment_method) : null;
  return confirmIntent(store, paymentIntent, { paymentMethod: given ?? current, offSession });
}

/** One payment attempt; a failed one throws Stripe's card error after recording the attempt and its events. */
function confirmIntent(store: StripeStore, paymentIntent: StripeObject, confirmation: Confirmation): StripeObject {
  const { paymentMethod, offSession } = confirmation;
  if (!paymentMethod) {
    const error = invalidRequest(
      paymentIntent.customer
        ? `You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with ${paymentIntent.customer}, specify a payment method attached to this customer along with the customer ID.`
        : "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      { code: "payment_intent_unexpected_state" },
    );
    error.body.payment_intent = structuredClone(paymentIntent);
    throw error;
  }
  paymentIntent.payment_method = paymentMethod.id;
  paymentIntent.last_payment_error = null;
  paymentIntent.next_action = null;
  if (!paymentMethod.customer) store.spentPaymentMethods.add(paymentMethod.id);
  const outcome = outcomeOf(store, paymentMethod);
  if (outcome === "succeed") return succeed(store, paymentIntent, paymentMethod);
  if (outcome === "authentication_required") {
    if (!offSession) return requireAction(store, paymentIntent);
    return failAuthentication(store, paymentIntent, paymentMethod);
  }
  return decline(
    store,
    paymentIntent,
    paymentMethod,
    outcome === "insufficient_funds" ? DECLINES.insufficient_funds : DECLINES.generic_decline,
  );
}

function succeed(store: StripeStore, paymentIntent: StripeObject, paymentMethod: StripeObject): StripeObject {
  const charge = chargeOf(store, paymentIntent, paymentMethod, null);
  paymentIntent.status = "succeeded";
  paymentIntent.amount_received = paymentIntent.amount;
  paymentIntent.latest_charge = charge.id;
  if (paymentIntent.setup_future_usage && paymentIntent.customer && !paymentMethod.customer)
    attachPaymentMethod(store, paymentMethod, paymentIntent.customer);
  store.emit("charge.succeeded", charge);
  store.emit("payment_intent.succeeded", paymentIntent);
  return paymentIntent;
}

function decline(store: StripeStore, paymentIntent: StripeObject, paymentMethod: StripeObject, reason: Decline): never {
  const charge = chargeOf(store, paymentIntent, paymentMethod, reason);
  paymentIntent.latest_charge = charge.id;
  paymentIntent.last_payment_error = {
    advice_code: charge.outcome.advice_code,
    charge: charge.id,
    code: "card_declined",
    decline_code: reason.declineCode,
    doc_url: docUrl("card_declined"),
    message: reason.message,
    payment_method: structuredClone(paymentMethod),
    type: "card_error",
  };
  failed(store, paymentIntent);
  store.emit("charge.failed", charge);
  store.emit("payment_intent.payment_failed", paymentIntent);
  throw cardError("card_declined", reason.message, {
    decline_code: reason.declineCode,
    charge: charge.id,
    payment_intent: structuredClone(paymentIntent),
    payment_method: structuredClone(paymentMethod),
  });
}

function failAuthentication(store: StripeStore, paymentIntent: StripeObject, paymentMethod: StripeObject): never {
  const message = "Your card was declined. This transaction requires authentication.";
  paymentIntent.last_payment_error = {
    code: "authentication_required",
    decline_code: "authentication_required",
    doc_url: docUrl("authentication_required"),
    message,
    payment_method: structuredClone(paymentMethod),
    type: "card_error",
  };
  failed(store, paymentIntent);
  store.emit("payment_intent.payment_failed", paymentIntent);
  throw cardError("authentication_required", message, {
    decline_code: "authentication_required",
    payment_intent: structuredClone(paymentIntent),
    payment_method: structuredClone(paymentMethod),
  });
}

/** After a failed attempt Stripe unsets the payment method (it lives on in `last_payment_error`). */
function failed(store: StripeStore, paymentIntent: StripeObject) {
  paymentIntent.status = "requires_payment_method";
  paymentIntent.payment_method = null;
  paymentIntent.amount_received = 0;
  store.put(paymentIntent);
}

/** On-session, a card that needs 3D Secure waits for the customer (`next_action`). */
function requireAction(store: StripeStore, paymentIntent: StripeObject): StripeObject {
  paymentIntent.status = "requires_action";
  paymentIntent.next_action = {
    type: "use_stripe_sdk",
    use_stripe_sdk: {
      type: "three_d_secure_redirect",
      stripe_js: `${store.baseUrl}/3ds/${paymentIntent.id}`,
      source: store.newId("payatt_"),
    },
  };
  store.emit("payment_intent.requires_action", paymentIntent);
  return paymentIntent;
}

function checkAmount(amount: number, currency: string) {
  if (amount < 1) throw invalidRequest("This value must be greater than or equal to 1.", { param: "amount" });
  const minimum = MINIMUM_AMOUNTS[currency];
  if (minimum && amount < minimum.amount)
    throw invalidRequest(`Amount must be at least ${minimum.symbol}${(minimum.amount / 100).toFixed(2)} ${currency}`, {
      param: "amount",
      code: "amount_too_small",
    });
}

/** `off_session`: true/false, or Stripe's `one_off` / `recurring` (both mean true). */
function offSessionParam(params: Params): boolean | undefined {
  const value = optionalString(params, "off_session");
  if (value === undefined || value === "") return undefined;
  if (value === "one_off" || value === "recurring") return true;
  return optionalBoolean(params, "off_session");
}

/** The `payment_method` param checked as Stripe does; a magic test id becomes a new payment method. */
function paymentMethodParam(store: StripeStore, params: Params, customer: string | null, offSession: boolean): StripeObject | null {
  const id = optionalString(params, "payment_method") || null;
  if (!id) return null;
  const magic = cardByMagicId(id);
  if (magic) return createCardPaymentMethod(store, magic, { customer: null, email: null });
  const paymentMethod = store.find("payment_method", id, "payment_method");
  if (paymentMethod.customer && paymentMethod.customer !== customer)
    throw invalidRequest(
      `The \`payment_method\` parameter supplied ${id} belongs to the Customer ${paymentMethod.customer}. Please include the Customer in the \`customer\` parameter on the PaymentIntent.`,
      { param: "payment_method" },
    );
  if (!paymentMethod.customer && store.spentPaymentMethods.has(id))
    throw invalidRequest(
      "The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.",
      { param: "payment_method" },
    );
  if (!paymentMethod.customer && customer && offSession)
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      { param: "payment_method" },
    );
  return paymentMethod;
}

export const paymentIntentRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/payment_intents", handle: ({ store, params }) => createPaymentIntent(store, params) },
  { method: "POST", path: "/v1/payment_intents/:id/confirm", handle: ({ store, id, params }) => confirmPaymentIntent(store, id, params) },
];

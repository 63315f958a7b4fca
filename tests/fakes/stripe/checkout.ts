import { createCardPaymentMethod, DEFAULT_CARD, type TestCard } from "@/tests/fakes/stripe/cards";
import { createCustomer } from "@/tests/fakes/stripe/customers";
import { cardError, invalidRequest, missingParam } from "@/tests/fakes/stripe/stripe-errors";
import type { Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import {
  mergeMetadata,
  optionalBoolean,
  optionalInteger,
  optionalList,
  optionalObject,
  optionalString,
  stringList,
} from "@/tests/fakes/stripe/params";
import { attachPaymentMethod } from "@/tests/fakes/stripe/payment-methods";
import { collectPayment, DECLINES } from "@/tests/fakes/stripe/payments";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import { createSetupIntent, succeedSetupIntent } from "@/tests/fakes/stripe/setup-intents";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import { startSubscription } from "@/tests/fakes/stripe/subscriptions";

// Checkout Sessions: create (mode checked against the prices, as Stripe does; `setup` mode takes no
// line items), retrieve, line items, expire, and completion by the hosted page with a test card: a
// subscription (with its paid invoice), a payment intent, or in setup mode a saved card (the
// payment method attached, a succeeded SetupIntent), then `checkout.session.completed`.

/** What the customer did on the hosted page. */
export type Completion = { email: string; card?: TestCard };

const NOT_IN_SETUP_MODE = ["line_items", "subscription_data", "payment_intent_data", "allow_promotion_codes"];

function lineItemsFor(store: StripeStore, params: Params, mode: string): StripeObject[] {
  const raw = optionalList(params, "line_items");
  if (!raw || raw.length === 0) throw missingParam("line_items");
  const lines = raw.map((entry, index) => {
    const param = `line_items[${index}]`;
    if (typeof entry !== "object" || Array.isArray(entry)) throw invalidRequest("Invalid object", { param });
    const priceId = optionalString(entry, "price");
    if (!priceId) throw missingParam(`${param}[price]`);
    const price = store.find("price", priceId, `${param}[price]`);
    if (!price.active)
      throw invalidRequest("The price specified is inactive. This field only accepts active prices.", { param: `${param}[price]` });
    const quantity = optionalInteger(entry, "quantity");
    if (quantity === undefined)
      throw invalidRequest(`Quantity is required. Add \`quantity\` to \`${param}\``, {
        param: `${param}[quantity]`,
        code: "parameter_missing",
      });
    if (mode === "payment" && price.type === "recurring") {
      throw invalidRequest(
        "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
        { param: `${param}[price]` },
      );
    }
    const product = store.find("product", price.product);
    const amount = price.unit_amount * quantity;
    return {
      id: store.newId("li_"),
      object: "item",
      adjustable_quantity: null,
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency: price.currency,
      description: product.name,
      metadata: {},
      price: structuredClone(price),
      quantity,
    };
  });
  if (mode === "subscription" && !lines.some((line) => line.price.type === "recurring")) {
    throw invalidRequest("You must provide at least one recurring price in `subscription` mode when using prices.", {
      param: "line_items",
    });
  }
  if (new Set(lines.map((line) => line.currency)).size > 1)
    throw invalidRequest("All line items must have the same currency.", { param: "line_items" });
  return lines;
}

function createSession(store: StripeStore, params: Params): StripeObject {
  const mode = optionalString(params, "mode");
  if (!mode) throw missingParam("mode");
  if (mode !== "payment" && mode !== "subscription" && mode !== "setup")
    throw invalidRequest(`Invalid mode: must be one of payment, setup or subscription`, { param: "mode" });
  const setup = mode === "setup";
  if (setup) {
    const refused = NOT_IN_SETUP_MODE.find((name) => params[name] !== undefined);
    if (refused) throw invalidRequest(`You can not pass \`${refused}\` in \`setup\` mode.`, { param: refused });
  }
  // This API version names the list `allowed_payment_method_types`; the older `payment_method_types` is taken too.
  const allowedTypes = stringList(params, "allowed_payment_method_types");
  const paymentMethodTypes = allowedTypes ?? stringList(params, "payment_method_types");
  const currency = optionalString(params, "currency")?.toLowerCase() || null;
  if (setup && !currency && !paymentMethodTypes) throw missingParam("currency");
  const customerId = optionalString(params, "customer") || null;
  const customerEmail = optionalString(params, "customer_email") || null;
  if (customerId && customerEmail)
    throw invalidRequest("You may only specify one of these parameters: customer, customer_email.", { param: "customer_email" });
  if (customerId) store.find("customer", customerId, "customer");
  const lines = setup ? [] : lineItemsFor(store, params, mode);
  const amount = setup ? null : lines.reduce((sum, line) => sum + line.amount_total, 0);
  const now = store.now();
  const id = store.newId(mode === "payment" ? "cs_test_a1" : setup ? "cs_test_c1" : "cs_test_b1", 56);
  const session = store.put({
    id,
    object: "checkout.session",
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: optionalBoolean(params, "allow_promotion_codes") ?? null,
    allowed_payment_method_types: allowedTypes ?? null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: optionalString(params, "cancel_url") || null,
    client_reference_id: optionalString(params, "client_reference_id") || null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: now,
    currency: lines[0]?.currency ?? currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: customerId,
    customer_account: null,
    // In setup mode the fake always creates a customer, so the saved card can be charged off-session.
    customer_creation: customerId ? null : mode === "payment" ? "if_required" : "always",
    customer_details: null,
    customer_email: customerEmail,
    discounts: [],
    expires_at: now + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation:
      mode === "payment"
        ? {
            enabled: false,
            invoice_data: {
              account_tax_ids: null,
              custom_fields: null,
              description: null,
              footer: null,
              issuer: null,
              metadata: {},
              rendering_options: null,
            },
          }
        : null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: mergeMetadata({}, params),
    mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: mode === "subscription" ? "always" : null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: paymentMethodTypes ?? ["card"],
    payment_status: setup ? "no_payment_required" : "unpaid",
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: optionalString(params, "success_url") || null,
    total_details: setup ? null : { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: `${store.baseUrl}/c/pay/${id}`,
    wallet_options: null,
  });
  store.lineItems.set(id, lines);
  store.checkoutAsks.set(id, {
    subscriptionMetadata: mergeMetadata({}, optionalObject(params, "subscription_data") ?? {}),
    trialDays: optionalInteger(optionalObject(params, "subscription_data") ?? {}, "trial_period_days"),
    paymentMetadata: mergeMetadata({}, optionalObject(params, "payment_intent_data") ?? {}),
    setupMetadata: mergeMetadata({}, optionalObject(params, "setup_intent_data") ?? {}),
    setupDescription: optionalString(optionalObject(params, "setup_intent_data") ?? {}, "description") || null,
  });
  return session;
}

export function expireSession(store: StripeStore, session: StripeObject): StripeObject {
  if (session.status !== "open")
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
    );
  session.status = "expired";
  session.url = null;
  store.emit("checkout.session.expired", session);
  return session;
}

/** The buyer paid (or saved a card) on the hosted page with a test card, 4242 unless chosen. */
export function completeSession(store: StripeStore, session: StripeObject, completion: Completion): StripeObject {
  if (session.status !== "open") throw invalidRequest(`This Checkout Session is no longer active (status ${session.status}).`);
  const { email } = completion;
  const card = completion.card ?? DEFAULT_CARD;
  // On the page the customer authenticates when the card asks for it; a declining card pays nothing.
  if (session.mode === "payment" && (card.outcome === "decline" || card.outcome === "insufficient_funds")) {
    const reason = card.outcome === "decline" ? DECLINES.generic_decline : DECLINES.insufficient_funds;
    throw cardError("card_declined", reason.message, { decline_code: reason.declineCode });
  }
  const asked = store.checkoutAsks.get(session.id) ?? { subscriptionMetadata: {}, paymentMetadata: {} };
  const lines = store.lineItems.get(session.id) ?? [];
  const existing = session.customer ? store.find("customer", session.customer) : null;
  const customerEmail = existing?.email ?? email;
  session.customer_details = {
    address: { city: null, country: "US", line1: null, line2: null, postal_code: "94107", state: null },
    business_name: null,
    email: customerEmail,
    individual_name: null,
    name: null,
    phone: null,
    tax_exempt: "none",
    tax_ids: [],
  };
  if (session.mode === "subscription") {
    const customer = existing ?? createCustomer(store, { email });
    session.customer = customer.id;
    const items = lines.map((line) => ({ price: store.find("price", line.price.id), quantity: line.quantity as number }));
    const subscription = startSubscription(store, {
      customer: customer.id,
      items,
      metadata: asked.subscriptionMetadata,
      trialDays: asked.trialDays,
    });
    session.subscription = subscription.id;
    session.invoice = subscription.latest_invoice;
  } else if (session.mode === "setup") {
    const customer = existing ?? createCustomer(store, { email });
    session.customer = customer.id;
    const paymentMethod = createCardPaymentMethod(store, card, { customer: null, email: customerEmail, allowRedisplay: "limited" });
    attachPaymentMethod(store, paymentMethod, customer.id);
    const setupIntent = createSetupIntent(store, {
      customer: customer.id,
      paymentMethodTypes: session.payment_method_types,
      metadata: asked.setupMetadata ?? {},
      description: asked.setupDescription ?? null,
    });
    succeedSetupIntent(store, setupIntent, paymentMethod);
    session.setup_intent = setupIntent.id;
  } else {
    const paymentMethod = createCardPaymentMethod(store, card, { customer: null, email: customerEmail });
    store.spentPaymentMethods.add(paymentMethod.id);
    const { paymentIntent } = collectPayment(store, {
      amount: session.amount_total,
      currency: session.currency,
      customer: session.customer,
      description: null,
      metadata: asked.paymentMetadata,
      receiptEmail: customerEmail,
      paymentMethod,
    });
    session.payment_intent = paymentIntent.id;
  }
  session.status = "complete";
  session.payment_status = session.mode === "setup" ? "no_payment_required" : "paid";
  session.url = null;
  store.emit("checkout.session.completed", session);
  return session;
}

export const checkoutRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/checkout/sessions", handle: ({ store, params }) => createSession(store, params) },
  {
    method: "GET",
    path: "/v1/checkout/sessions",
    handle: ({ store, params }) => listPage(store.all("checkout.session"), params, "/v1/checkout/sessions"),
  },
  { method: "GET", path: "/v1/checkout/sessions/:id", handle: ({ store, id }) => store.find("checkout.session", id) },
  {
    method: "GET",
    path: "/v1/checkout/sessions/:id/line_items",
    handle: ({ store, id, params }) =>
      listPage(store.lineItems.get(store.find("checkout.session", id).id) ?? [], params, `/v1/checkout/sessions/${id}/line_items`),
  },
  {
    method: "POST",
    path: "/v1/checkout/sessions/:id/expire",
    handle: ({ store, id }) => expireSession(store, store.find("checkout.session", id)),
  },
];

import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Card payments: a succeeded payment intent with its charge (the test card 4242 always pays), or a
// payment intent whose card was declined; retrieve routes for both.

export type PaymentRequest = {
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
};

export function collectPayment(store: StripeStore, request: PaymentRequest): { paymentIntent: StripeObject; charge: StripeObject } {
  const paymentIntent = store.put(paymentIntentOf(store, request, "succeeded"));
  const charge = store.put({
    id: store.newId("ch_"),
    object: "charge",
    amount: request.amount,
    amount_captured: request.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: {
      address: { city: null, country: "US", line1: null, line2: null, postal_code: "94107", state: null },
      email: request.receiptEmail,
      name: null,
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: "DARKROOM",
    captured: true,
    created: store.now(),
    currency: request.currency,
    customer: request.customer,
    description: request.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: { ...request.metadata },
    on_behalf_of: null,
    outcome: {
      network_status: "approved_by_network",
      reason: null,
      risk_level: "normal",
      risk_score: 21,
      seller_message: "Payment complete.",
      type: "authorized",
    },
    paid: true,
    payment_intent: paymentIntent.id,
    payment_method: paymentIntent.payment_method,
    payment_method_details: {
      card: { brand: "visa", country: "US", exp_month: 12, exp_year: 2034, funding: "credit", last4: "4242", network: "visa" },
      type: "card",
    },
    receipt_email: request.receiptEmail,
    receipt_number: null,
    receipt_url: `${store.baseUrl}/receipts/payment/${paymentIntent.id}`,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "succeeded",
    transfer_data: null,
    transfer_group: null,
  });
  paymentIntent.latest_charge = charge.id;
  return { paymentIntent, charge };
}

/** A renewal whose card was declined: the payment intent waits for a new payment method. */
export function declinePayment(store: StripeStore, request: PaymentRequest): StripeObject {
  const paymentIntent = paymentIntentOf(store, request, "requires_payment_method");
  paymentIntent.amount_received = 0;
  paymentIntent.last_payment_error = {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    type: "card_error",
  };
  return store.put(paymentIntent);
}

function paymentIntentOf(store: StripeStore, request: PaymentRequest, status: string): StripeObject {
  const id = store.newId("pi_");
  return {
    id,
    object: "payment_intent",
    amount: request.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: request.amount,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_${store.newId("", 25)}`,
    confirmation_method: "automatic",
    created: store.now(),
    currency: request.currency,
    customer: request.customer,
    customer_account: null,
    description: request.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: { ...request.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: store.newId("pm_"),
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: request.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_data: null,
    transfer_group: null,
  };
}

export const paymentRoutes: ApiRoute[] = [
  { method: "GET", path: "/v1/payment_intents/:id", handle: ({ store, id }) => store.find("payment_intent", id) },
  { method: "GET", path: "/v1/charges/:id", handle: ({ store, id }) => store.find("charge", id) },
];

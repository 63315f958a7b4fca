import { chargeCardDetails, createCardPaymentMethod, DEFAULT_CARD } from "@/tests/fakes/stripe/cards";
import { listPage } from "@/tests/fakes/stripe/list";
import { optionalString } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Card payments: a succeeded payment intent with its charge (the test card 4242 always pays), or a
// payment intent whose card was declined; the charge of one attempt on a card payment method,
// succeeded or failed; retrieve routes for both and the payment intent list (`customer`).

export type PaymentRequest = {
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  /** The card paying; a fresh unsaved 4242 card when not given. */
  paymentMethod?: StripeObject;
};

/** Why a card declined, in the words Stripe uses on the charge and in the error. */
export type Decline = { declineCode: "generic_decline" | "insufficient_funds"; message: string };

export const DECLINES: Record<Decline["declineCode"], Decline> = {
  generic_decline: { declineCode: "generic_decline", message: "Your card was declined." },
  insufficient_funds: { declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
};

export function collectPayment(store: StripeStore, request: PaymentRequest): { paymentIntent: StripeObject; charge: StripeObject } {
  const paymentMethod = paymentMethodFor(store, request);
  const paymentIntent = store.put(paymentIntentOf(store, request, "succeeded", paymentMethod.id));
  const charge = chargeOf(store, paymentIntent, paymentMethod, null);
  paymentIntent.latest_charge = charge.id;
  return { paymentIntent, charge };
}

/** The charge of one attempt on `paymentIntent` with a card payment method: paid, or failed with `decline`. */
export function chargeOf(
  store: StripeStore,
  paymentIntent: StripeObject,
  paymentMethod: StripeObject,
  decline: Decline | null,
): StripeObject {
  const paid = decline === null;
  return store.put({
    id: store.newId("ch_"),
    object: "charge",
    amount: paymentIntent.amount,
    amount_captured: paid ? paymentIntent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: structuredClone(paymentMethod.billing_details),
    calculated_statement_descriptor: "DARKROOM",
    captured: paid,
    created: store.now(),
    currency: paymentIntent.currency,
    customer: paymentIntent.customer,
    description: paymentIntent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: paid ? null : "card_declined",
    failure_message: paid ? null : decline.message,
    fraud_details: {},
    livemode: false,
    metadata: { ...paymentIntent.metadata },
    on_behalf_of: null,
    outcome: paid
      ? {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: "approved_by_network",
          reason: null,
          risk_level: "normal",
          risk_score: 21,
          seller_message: "Payment complete.",
          type: "authorized",
        }
      : {
          advice_code: decline.declineCode === "insufficient_funds" ? "try_again_later" : "do_not_try_again",
          network_advice_code: null,
          network_decline_code: null,
          network_status: "declined_by_network",
          reason: decline.declineCode,
          risk_level: "normal",
          risk_score: 21,
          seller_message:
            decline.declineCode === "generic_decline"
              ? "The bank did not return any further details with this decline."
              : `The bank returned the decline code \`${decline.declineCode}\`.`,
          type: "issuer_declined",
        },
    paid,
    payment_intent: paymentIntent.id,
    payment_method: paymentMethod.id,
    payment_method_details: chargeCardDetails(paymentMethod),
    receipt_email: paymentIntent.receipt_email,
    receipt_number: null,
    receipt_url: paid ? `${store.baseUrl}/receipts/payment/${paymentIntent.id}` : null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: paid ? "succeeded" : "failed",
    transfer_data: null,
    transfer_group: null,
  });
}

/** A renewal whose card was declined: the payment intent waits for a new payment method. */
export function declinePayment(store: StripeStore, request: PaymentRequest): StripeObject {
  const paymentMethod = paymentMethodFor(store, request);
  const paymentIntent = paymentIntentOf(store, request, "requires_payment_method", null);
  paymentIntent.amount_received = 0;
  paymentIntent.last_payment_error = {
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    payment_method: structuredClone(paymentMethod),
    type: "card_error",
  };
  return store.put(paymentIntent);
}

function paymentMethodFor(store: StripeStore, request: PaymentRequest): StripeObject {
  if (request.paymentMethod) return request.paymentMethod;
  const paymentMethod = createCardPaymentMethod(store, DEFAULT_CARD, { customer: null, email: request.receiptEmail });
  store.spentPaymentMethods.add(paymentMethod.id);
  return paymentMethod;
}

/** A payment intent for `request`; `amount_received` is the whole amount (callers set it otherwise). */
export function paymentIntentOf(store: StripeStore, request: PaymentRequest, status: string, paymentMethod: string | null): StripeObject {
  const id = store.newId("pi_");
  return {
    id,
    object: "payment_intent",
    allowed_payment_method_types: null,
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
    managed_payments: null,
    metadata: { ...request.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_record: null,
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
  {
    method: "GET",
    path: "/v1/payment_intents",
    handle: ({ store, params }) => {
      const customer = optionalString(params, "customer");
      const paymentIntents = store.all("payment_intent").filter((paymentIntent) => !customer || paymentIntent.customer === customer);
      return listPage(paymentIntents, params, "/v1/payment_intents");
    },
  },
  { method: "GET", path: "/v1/payment_intents/:id", handle: ({ store, id }) => store.find("payment_intent", id) },
  { method: "GET", path: "/v1/charges/:id", handle: ({ store, id }) => store.find("charge", id) },
];

import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import type { Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import { mergeMetadata, optionalInteger, optionalString } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Refunds of a charge (by `charge` or `payment_intent`), full or partial, with `charge.refunded` and
// `refund.created`; and disputes, which only the test control opens (`charge.dispute.created`).

const REASONS = ["duplicate", "fraudulent", "requested_by_customer"];

function createRefund(store: StripeStore, params: Params): StripeObject {
  const paymentIntentId = optionalString(params, "payment_intent");
  const chargeId = optionalString(params, "charge");
  if (!paymentIntentId && !chargeId)
    throw invalidRequest("One of the following params should be provided for this request: payment_intent or charge.", {
      code: "parameter_missing",
    });
  let charge: StripeObject;
  if (chargeId) charge = store.find("charge", chargeId, "charge");
  else {
    const paymentIntent = store.find("payment_intent", paymentIntentId ?? "", "payment_intent");
    if (!paymentIntent.latest_charge)
      throw invalidRequest(`This PaymentIntent (${paymentIntent.id}) does not have a successful charge to refund.`, {
        param: "payment_intent",
      });
    charge = store.find("charge", paymentIntent.latest_charge);
  }
  if (charge.refunded) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: "charge_already_refunded" });
  const remaining = charge.amount - charge.amount_refunded;
  const amount = optionalInteger(params, "amount") ?? remaining;
  if (amount < 1) throw invalidRequest("This value must be greater than or equal to 1.", { param: "amount" });
  if (amount > remaining) {
    throw invalidRequest(
      `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(remaining, charge.currency)})`,
      { param: "amount" },
    );
  }
  const reason = optionalString(params, "reason") || null;
  if (reason && !REASONS.includes(reason))
    throw invalidRequest(`Invalid reason: must be one of ${REASONS.join(", ")}`, { param: "reason" });

  const refund = store.put({
    id: store.newId("re_"),
    object: "refund",
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: store.now(),
    currency: charge.currency,
    customer: charge.customer,
    customer_account: null,
    destination_details: {
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
      type: "card",
    },
    metadata: mergeMetadata({}, params),
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
  });
  const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  store.emit("charge.refunded", charge, previous);
  store.emit("refund.created", refund);
  return refund;
}

function money(amount: number, currency: string) {
  return `${currency === "usd" ? "$" : `${currency.toUpperCase()} `}${(amount / 100).toFixed(2)}`;
}

/** The test control's dispute: the cardholder says the payment was fraud. */
export function openDispute(store: StripeStore, charge: StripeObject): StripeObject {
  const now = store.now();
  const dispute = store.put({
    id: store.newId("dp_"),
    object: "dispute",
    amount: charge.amount - charge.amount_refunded,
    balance_transactions: [],
    charge: charge.id,
    created: now,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: { customer_email_address: charge.billing_details?.email ?? null, product_description: null, uncategorized_text: null },
    evidence_details: { due_by: now + 7 * 86_400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0 },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    network_reason_code: "10.4",
    payment_intent: charge.payment_intent,
    payment_method_details: { card: { brand: "visa", case_type: "chargeback", network_reason_code: "10.4" }, type: "card" },
    reason: "fraudulent",
    status: "needs_response",
  });
  charge.disputed = true;
  store.emit("charge.dispute.created", dispute);
  return dispute;
}

export const refundRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/refunds", handle: ({ store, params }) => createRefund(store, params) },
  {
    method: "GET",
    path: "/v1/refunds",
    handle: ({ store, params }) => {
      const charge = optionalString(params, "charge");
      const paymentIntent = optionalString(params, "payment_intent");
      const refunds = store
        .all("refund")
        .filter((refund) => !charge || refund.charge === charge)
        .filter((refund) => !paymentIntent || refund.payment_intent === paymentIntent);
      return listPage(refunds, params, "/v1/refunds");
    },
  },
  { method: "GET", path: "/v1/refunds/:id", handle: ({ store, id }) => store.find("refund", id) },
  { method: "GET", path: "/v1/disputes/:id", handle: ({ store, id }) => store.find("dispute", id) },
];

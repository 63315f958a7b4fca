import type { Params } from "@/tests/fakes/stripe/form";
import { embeddedList, listPage } from "@/tests/fakes/stripe/list";
import { optionalString } from "@/tests/fakes/stripe/params";
import { collectPayment, declinePayment } from "@/tests/fakes/stripe/payments";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Subscription invoices as this API version shapes them: `parent.subscription_details`, lines with
// `pricing.price_details` and the service `period`, payments reachable through `expand[]=payments`
// (invoices no longer carry `subscription` or `payment_intent` at the top level). The invoice's own
// `period_start`/`period_end` are Stripe's: both "now" on the first invoice, the past period on a renewal.

export type BillingReason = "subscription_create" | "subscription_cycle" | "subscription_update";

/** `trial`: the first invoice of a trialing subscription, for 0. */
export type InvoiceRequest = {
  subscription: StripeObject;
  billingReason: BillingReason;
  period: { start: number; end: number };
  outcome: "paid" | "declined";
  trial?: boolean;
};

export function issueInvoice(store: StripeStore, request: InvoiceRequest): StripeObject {
  const { subscription } = request;
  const customer = store.find("customer", subscription.customer);
  const id = store.newId("in_");
  const now = store.now();
  const lines = (subscription.items.data as StripeObject[]).map((item) => lineOf(store, id, subscription, item, request.trial ?? false));
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const paid = request.outcome === "paid";
  const invoice = store.put({
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Darkroom (Stripe fake)",
    account_tax_ids: null,
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: paid ? total : 0,
    amount_remaining: paid ? 0 : total,
    amount_shipping: 0,
    application: null,
    attempt_count: total > 0 ? 1 : 0,
    attempted: true,
    auto_advance: !paid,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: request.billingReason,
    collection_method: "charge_automatically",
    created: now,
    currency: subscription.currency,
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: now,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `${store.baseUrl}/invoices/${id}`,
    invoice_pdf: `${store.baseUrl}/invoices/${id}/pdf`,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: embeddedList(lines, `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: paid ? null : now + 3 * 86_400,
    number: `${customer.invoice_prefix}-${String(customer.next_invoice_sequence++).padStart(4, "0")}`,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      type: "subscription_details",
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: request.period.end,
    period_start: request.period.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: paid ? "paid" : "open",
    status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: paid ? now : null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: now,
  });
  if (total > 0) recordPayment(store, invoice, customer);
  return invoice;
}

function recordPayment(store: StripeStore, invoice: StripeObject, customer: StripeObject) {
  const payment = {
    amount: invoice.amount_due,
    currency: invoice.currency,
    customer: customer.id,
    description: invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
    metadata: {},
    receiptEmail: customer.email,
  };
  const paid = invoice.status === "paid";
  const paymentIntent = paid ? collectPayment(store, payment).paymentIntent : declinePayment(store, payment);
  const invoicePayment = {
    id: store.newId("inpay_"),
    object: "invoice_payment",
    amount_paid: paid ? invoice.amount_due : null,
    amount_requested: invoice.amount_due,
    created: store.now(),
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { payment_intent: paymentIntent.id, type: "payment_intent" },
    status: paid ? "paid" : "open",
    status_transitions: { canceled_at: null, paid_at: paid ? store.now() : null },
  };
  store.invoicePayments.set(invoice.id, [invoicePayment]);
}

function lineOf(store: StripeStore, invoiceId: string, subscription: StripeObject, item: StripeObject, trial: boolean): StripeObject {
  const price = item.price as StripeObject;
  const product = store.find("product", price.product);
  const amount = trial ? 0 : (price.unit_amount as number) * (item.quantity as number);
  return {
    id: store.newId("il_"),
    object: "line_item",
    amount,
    currency: price.currency,
    description: trial
      ? `Trial period for ${product.name}`
      : `${item.quantity} × ${product.name} (at ${(price.unit_amount / 100).toFixed(2)} ${String(price.currency).toUpperCase()} / ${price.recurring?.interval ?? "once"})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: { ...subscription.metadata },
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: item.id,
      },
      type: "subscription_item_details",
    },
    period: { start: item.current_period_start, end: item.current_period_end },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: price.id, product: price.product },
      type: "price_details",
      unit_amount_decimal: price.unit_amount_decimal,
    },
    quantity: item.quantity,
    subscription: subscription.id,
    subtotal: amount,
    taxes: [],
  };
}

function listInvoices(store: StripeStore, params: Params): StripeObject {
  const customer = optionalString(params, "customer");
  const subscription = optionalString(params, "subscription");
  const status = optionalString(params, "status");
  const invoices = store
    .all("invoice")
    .filter((invoice) => !customer || invoice.customer === customer)
    .filter((invoice) => !subscription || invoice.parent?.subscription_details?.subscription === subscription)
    .filter((invoice) => !status || invoice.status === status);
  return listPage(invoices, params, "/v1/invoices");
}

export const invoiceRoutes: ApiRoute[] = [
  { method: "GET", path: "/v1/invoices", handle: ({ store, params }) => listInvoices(store, params) },
  { method: "GET", path: "/v1/invoices/:id", handle: ({ store, id }) => store.find("invoice", id) },
];

import { cardByMagicId, createCardPaymentMethod } from "@/tests/fakes/stripe/cards";
import type { Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import { optionalString, requiredString } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import { previousAttributes } from "@/tests/fakes/stripe/subscriptions";

// Payment methods: retrieve, list (`customer`, `type`), a customer's list, attach (also Stripe's
// test-mode magic ids `pm_card_visa`…, which attach a new `pm_…` of that card) with
// `payment_method.attached`, and detach with `payment_method.detached` (unsetting the customer's
// invoice default, with `customer.updated`).

export function attachPaymentMethod(store: StripeStore, paymentMethod: StripeObject, customer: string): StripeObject {
  paymentMethod.customer = customer;
  store.spentPaymentMethods.delete(paymentMethod.id);
  store.emit("payment_method.attached", paymentMethod);
  return paymentMethod;
}

function attach(store: StripeStore, id: string, params: Params): StripeObject {
  const customer = store.find("customer", requiredString(params, "customer"), "customer");
  const magic = cardByMagicId(id);
  if (magic) return attachPaymentMethod(store, createCardPaymentMethod(store, magic, { customer: null, email: null }), customer.id);
  const paymentMethod = store.find("payment_method", id);
  if (paymentMethod.customer === customer.id) return paymentMethod;
  if (paymentMethod.customer) throw invalidRequest("The payment method you provided has already been attached to a customer.");
  if (store.spentPaymentMethods.has(id))
    throw invalidRequest(
      "This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.",
    );
  return attachPaymentMethod(store, paymentMethod, customer.id);
}

function detach(store: StripeStore, id: string): StripeObject {
  const paymentMethod = store.find("payment_method", id);
  const customerId = paymentMethod.customer as string | null;
  if (!customerId) throw invalidRequest("The payment method you provided is not attached to a customer so detachment is impossible.");
  paymentMethod.customer = null;
  store.spentPaymentMethods.add(id);
  store.emit("payment_method.detached", paymentMethod, { customer: customerId });
  const customer = store.objects.get(customerId);
  if (customer && customer.invoice_settings?.default_payment_method === id) {
    const before = structuredClone(customer);
    customer.invoice_settings.default_payment_method = null;
    store.emit("customer.updated", customer, previousAttributes(before, customer));
  }
  return paymentMethod;
}

function listFor(store: StripeStore, customer: string | undefined, params: Params, url: string): StripeObject {
  const type = optionalString(params, "type");
  const paymentMethods = store
    .all("payment_method")
    .filter((paymentMethod) => !customer || paymentMethod.customer === customer)
    .filter((paymentMethod) => !type || paymentMethod.type === type);
  return listPage(paymentMethods, params, url);
}

export const paymentMethodRoutes: ApiRoute[] = [
  {
    method: "GET",
    path: "/v1/payment_methods",
    handle: ({ store, params }) => {
      const customer = optionalString(params, "customer") || undefined;
      if (customer) store.find("customer", customer, "customer");
      return listFor(store, customer, params, "/v1/payment_methods");
    },
  },
  { method: "GET", path: "/v1/payment_methods/:id", handle: ({ store, id }) => store.find("payment_method", id) },
  { method: "POST", path: "/v1/payment_methods/:id/attach", handle: ({ store, id, params }) => attach(store, id, params) },
  { method: "POST", path: "/v1/payment_methods/:id/detach", handle: ({ store, id }) => detach(store, id) },
  {
    method: "GET",
    path: "/v1/customers/:id/payment_methods",
    handle: ({ store, id, params }) => listFor(store, store.find("customer", id).id, params, `/v1/customers/${id}/payment_methods`),
  },
];

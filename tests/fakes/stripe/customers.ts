import type { Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import { mergeMetadata, optionalObject, optionalString } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import { previousAttributes } from "@/tests/fakes/stripe/subscriptions";

// Customers: create, retrieve, update (`invoice_settings[default_payment_method]` must be attached to
// the customer; `customer.updated` when something changed), list (by `email`), delete.

export function createCustomer(store: StripeStore, params: Params): StripeObject {
  return store.put({
    id: store.newId("cus_", 14),
    object: "customer",
    address: null,
    balance: 0,
    created: store.now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: optionalString(params, "description") || null,
    discount: null,
    email: optionalString(params, "email") || null,
    invoice_prefix: store.newId("", 8).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: mergeMetadata({}, params),
    name: optionalString(params, "name") || null,
    next_invoice_sequence: 1,
    phone: optionalString(params, "phone") || null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  });
}

function updateCustomer(store: StripeStore, id: string, params: Params): StripeObject {
  const customer = store.find("customer", id);
  const invoiceSettings = optionalObject(params, "invoice_settings");
  const defaultPaymentMethod = invoiceSettings ? optionalString(invoiceSettings, "default_payment_method") : undefined;
  if (defaultPaymentMethod) {
    const param = "invoice_settings[default_payment_method]";
    const paymentMethod = store.find("payment_method", defaultPaymentMethod, param);
    if (paymentMethod.customer !== customer.id)
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${defaultPaymentMethod}. The payment method must be attached to the customer.`,
        { param },
      );
  }
  const before = structuredClone(customer);
  for (const field of ["email", "name", "description", "phone"]) {
    const value = optionalString(params, field);
    if (value !== undefined) customer[field] = value || null;
  }
  customer.metadata = mergeMetadata(customer.metadata, params);
  if (defaultPaymentMethod !== undefined)
    customer.invoice_settings = { ...customer.invoice_settings, default_payment_method: defaultPaymentMethod || null };
  const previous = previousAttributes(before, customer);
  if (Object.keys(previous).length > 0) store.emit("customer.updated", customer, previous);
  return customer;
}

function deleteCustomer(store: StripeStore, id: string): StripeObject {
  const customer = store.find("customer", id);
  customer.deleted = true;
  return { id: customer.id, object: "customer", deleted: true };
}

export const customerRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/customers", handle: ({ store, params }) => createCustomer(store, params) },
  {
    method: "GET",
    path: "/v1/customers",
    handle: ({ store, params }) => {
      const email = optionalString(params, "email");
      return listPage(
        store.all("customer").filter((customer) => !email || customer.email === email),
        params,
        "/v1/customers",
      );
    },
  },
  { method: "GET", path: "/v1/customers/:id", handle: ({ store, id }) => store.find("customer", id) },
  { method: "POST", path: "/v1/customers/:id", handle: ({ store, id, params }) => updateCustomer(store, id, params) },
  { method: "DELETE", path: "/v1/customers/:id", handle: ({ store, id }) => deleteCustomer(store, id) },
];

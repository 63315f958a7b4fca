import type { Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import { mergeMetadata, optionalString } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Customers: create, retrieve, update, list (by `email`), delete.

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
  for (const field of ["email", "name", "description", "phone"]) {
    const value = optionalString(params, field);
    if (value !== undefined) customer[field] = value || null;
  }
  customer.metadata = mergeMetadata(customer.metadata, params);
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

import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import { optionalString, requiredString } from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import { assertNotCanceled, finishUpdate, setCancelAtPeriodEnd, switchPrice } from "@/tests/fakes/stripe/subscriptions";

// The Customer Portal: POST /v1/billing_portal/sessions, and what the customer can do on the hosted
// portal page (cancel at period end, undo it, switch price), with the events the API would send.

export type PortalAction = { subscription: string; action: "cancel" | "renew" | "switch"; price?: string };

function createPortalSession(store: StripeStore, params: Parameters<typeof requiredString>[0]): StripeObject {
  const customer = store.find("customer", requiredString(params, "customer"), "customer");
  const id = store.newId("bps_");
  return store.put({
    id,
    object: "billing_portal.session",
    configuration: "bpc_fake_default",
    created: store.now(),
    customer: customer.id,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: optionalString(params, "return_url") || null,
    url: `${store.baseUrl}/p/session/${id}`,
  });
}

export function applyPortalAction(store: StripeStore, portal: StripeObject, action: PortalAction) {
  const subscription = store.find("subscription", action.subscription);
  if (subscription.customer !== portal.customer) throw invalidRequest("This subscription belongs to another customer.");
  assertNotCanceled(subscription);
  const before = structuredClone(subscription);
  let periodRestarted = false;
  if (action.action === "cancel") setCancelAtPeriodEnd(store, subscription, true);
  if (action.action === "renew") setCancelAtPeriodEnd(store, subscription, false);
  if (action.action === "switch") {
    const item = subscription.items.data[0] as StripeObject;
    periodRestarted = switchPrice(store, subscription, item, store.find("price", action.price ?? ""), "price");
  }
  finishUpdate(store, subscription, before, periodRestarted);
}

export const portalRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/billing_portal/sessions", handle: ({ store, params }) => createPortalSession(store, params) },
];

import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// SetupIntents (`seti_…`): the one a setup-mode Checkout Session creates when the customer saves a
// card (`setup_intent.created`, then `setup_intent.succeeded` with the payment method, for
// off-session use), and GET /v1/setup_intents/:id.

export type SetupRequest = {
  customer: string;
  paymentMethodTypes: string[];
  metadata: Record<string, string>;
  description: string | null;
};

/** Created as Checkout does while the customer is on the page: waiting for the payment method. */
export function createSetupIntent(store: StripeStore, request: SetupRequest): StripeObject {
  const id = store.newId("seti_");
  const setupIntent = store.put({
    id,
    object: "setup_intent",
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${store.newId("", 32)}`,
    created: store.now(),
    customer: request.customer,
    customer_account: null,
    description: request.description,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: { ...request.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: [...request.paymentMethodTypes],
    single_use_mandate: null,
    status: "requires_payment_method",
    usage: "off_session",
  });
  store.emit("setup_intent.created", setupIntent);
  return setupIntent;
}

/** The customer confirmed with a card (authenticated on the page when the card asks for it). */
export function succeedSetupIntent(store: StripeStore, setupIntent: StripeObject, paymentMethod: StripeObject): StripeObject {
  setupIntent.payment_method = paymentMethod.id;
  setupIntent.status = "succeeded";
  store.emit("setup_intent.succeeded", setupIntent);
  return setupIntent;
}

export const setupIntentRoutes: ApiRoute[] = [
  { method: "GET", path: "/v1/setup_intents/:id", handle: ({ store, id }) => store.find("setup_intent", id) },
];

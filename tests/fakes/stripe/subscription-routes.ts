import { invalidRequest, missingParam } from "@/tests/fakes/stripe/stripe-errors";
import type { FormValue, Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import {
  mergeMetadata,
  optionalBoolean,
  optionalInteger,
  optionalList,
  optionalObject,
  optionalString,
  requiredString,
} from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import {
  assertNotCanceled,
  cancelNow,
  currentPeriodEnd,
  finishUpdate,
  setCancelAtPeriodEnd,
  startSubscription,
  subscriptionItem,
  switchPrice,
  type ItemRequest,
} from "@/tests/fakes/stripe/subscriptions";

// /v1/subscriptions: create (customer + items, optional trial), retrieve, list (`customer`, `status`,
// `price`), update (`cancel_at_period_end`, `items[n][id|price|quantity|deleted]`, `metadata`,
// `proration_behavior`) with `customer.subscription.updated`, and DELETE to cancel at once.

const PRORATION_BEHAVIORS = ["create_prorations", "none", "always_invoice"];

function itemParams(params: Params): Params[] {
  return (optionalList(params, "items") ?? []).map((item: FormValue, index) => {
    if (typeof item !== "object" || Array.isArray(item)) throw invalidRequest("Invalid object", { param: `items[${index}]` });
    return item;
  });
}

function recurringPrice(store: StripeStore, priceId: string, param: string): StripeObject {
  const price = store.find("price", priceId, param);
  if (price.type !== "recurring")
    throw invalidRequest("The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.", {
      param,
    });
  if (!price.active) throw invalidRequest("The price specified is inactive. This field only accepts active prices.", { param });
  return price;
}

function createSubscription(store: StripeStore, params: Params): StripeObject {
  const customer = store.find("customer", requiredString(params, "customer"), "customer").id as string;
  const items: ItemRequest[] = itemParams(params).map((item, index) => ({
    price: recurringPrice(store, requiredString(item, "price"), `items[${index}][price]`),
    quantity: optionalInteger(item, "quantity") ?? 1,
  }));
  if (items.length === 0) throw missingParam("items");
  const currencies = new Set(items.map((item) => item.price.currency));
  if (currencies.size > 1) throw invalidRequest("All prices on a subscription must have the same `currency`.", { param: "items" });
  const trialDays = optionalInteger(params, "trial_period_days");
  return startSubscription(store, { customer, items, metadata: mergeMetadata({}, params), trialDays });
}

function updateSubscription(store: StripeStore, id: string, params: Params): StripeObject {
  const subscription = store.find("subscription", id);
  const before = structuredClone(subscription);
  const onlyMetadata = Object.keys(params).every((key) => key === "metadata" || key === "expand" || key === "cancellation_details");
  if (!onlyMetadata) assertNotCanceled(subscription);
  const proration = optionalString(params, "proration_behavior");
  if (proration && !PRORATION_BEHAVIORS.includes(proration))
    throw invalidRequest(`Invalid proration_behavior: must be one of ${PRORATION_BEHAVIORS.join(", ")}`, { param: "proration_behavior" });

  const cancel = optionalBoolean(params, "cancel_at_period_end");
  if (cancel !== undefined) setCancelAtPeriodEnd(store, subscription, cancel);
  let periodRestarted = false;
  itemParams(params).forEach((itemParam, index) => {
    const itemId = optionalString(itemParam, "id");
    const priceId = optionalString(itemParam, "price");
    const items = subscription.items.data as StripeObject[];
    if (!itemId) {
      if (!priceId) throw missingParam(`items[${index}][price]`);
      const price = recurringPrice(store, priceId, `items[${index}][price]`);
      if (items.some((item) => item.price.id === price.id))
        throw invalidRequest("Cannot add multiple subscription items with the same price.", { param: `items[${index}][price]` });
      const first = items[0];
      items.push(
        subscriptionItem(
          store,
          subscription.id,
          { price, quantity: optionalInteger(itemParam, "quantity") ?? 1 },
          first?.current_period_start ?? store.now(),
          first?.current_period_end ?? currentPeriodEnd(subscription),
        ),
      );
      return;
    }
    const item = items.find((each) => each.id === itemId);
    if (!item) throw invalidRequest(`No such subscription item: '${itemId}'`, { param: `items[${index}][id]`, code: "resource_missing" });
    if (optionalBoolean(itemParam, "deleted")) {
      items.splice(items.indexOf(item), 1);
      return;
    }
    if (priceId)
      periodRestarted =
        switchPrice(store, subscription, item, recurringPrice(store, priceId, `items[${index}][price]`), `items[${index}][price]`) ||
        periodRestarted;
    const quantity = optionalInteger(itemParam, "quantity");
    if (quantity !== undefined) item.quantity = quantity;
  });
  subscription.items.total_count = subscription.items.data.length;
  subscription.metadata = mergeMetadata(subscription.metadata, params);
  finishUpdate(store, subscription, before, periodRestarted);
  return subscription;
}

function listSubscriptions(store: StripeStore, params: Params): StripeObject {
  const customer = optionalString(params, "customer");
  const status = optionalString(params, "status");
  const price = optionalString(params, "price");
  const subscriptions = store
    .all("subscription")
    .filter((subscription) => !customer || subscription.customer === customer)
    // Without `status`, Stripe lists every subscription that is not canceled.
    .filter((subscription) => (status === "all" ? true : status ? subscription.status === status : subscription.status !== "canceled"))
    .filter((subscription) => !price || (subscription.items.data as StripeObject[]).some((item) => item.price.id === price));
  return listPage(subscriptions, params, "/v1/subscriptions");
}

export const subscriptionRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/subscriptions", handle: ({ store, params }) => createSubscription(store, params) },
  { method: "GET", path: "/v1/subscriptions", handle: ({ store, params }) => listSubscriptions(store, params) },
  { method: "GET", path: "/v1/subscriptions/:id", handle: ({ store, id }) => store.find("subscription", id) },
  { method: "POST", path: "/v1/subscriptions/:id", handle: ({ store, id, params }) => updateSubscription(store, id, params) },
  {
    method: "DELETE",
    path: "/v1/subscriptions/:id",
    handle: ({ store, id, params }) =>
      cancelNow(
        store,
        store.find("subscription", id),
        optionalString(optionalObject(params, "cancellation_details") ?? {}, "comment") ?? null,
      ),
  },
];

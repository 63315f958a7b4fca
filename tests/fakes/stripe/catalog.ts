import { invalidRequest, missingParam } from "@/tests/fakes/stripe/stripe-errors";
import type { Params } from "@/tests/fakes/stripe/form";
import { listPage } from "@/tests/fakes/stripe/list";
import {
  mergeMetadata,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalString,
  requiredString,
  stringList,
} from "@/tests/fakes/stripe/params";
import type { ApiRoute } from "@/tests/fakes/stripe/router";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Products and prices: create (with `lookup_key` and `transfer_lookup_key`), retrieve, update, and
// list (prices by `lookup_keys[]`, `active`, `product`, `type`), plus the legacy `plan` view of a
// recurring price that subscription items carry.

const INTERVALS = ["day", "week", "month", "year"];

export function createProduct(store: StripeStore, params: Params): StripeObject {
  const name = requiredString(params, "name");
  const id = optionalString(params, "id") || store.newId("prod_", 14);
  if (store.objects.has(id)) throw invalidRequest("Product already exists.", { param: "id", code: "resource_already_exists" });
  const now = store.now();
  return store.put({
    id,
    object: "product",
    active: optionalBoolean(params, "active") ?? true,
    created: now,
    default_price: null,
    description: optionalString(params, "description") || null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: mergeMetadata({}, params),
    name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: "service",
    unit_label: null,
    updated: now,
    url: null,
  });
}

export function createPrice(store: StripeStore, params: Params): StripeObject {
  const currency = requiredString(params, "currency").toLowerCase();
  const productData = optionalObject(params, "product_data");
  const productId = productData ? createProduct(store, productData).id : optionalString(params, "product");
  if (!productId) throw missingParam("product");
  store.find("product", productId, "product");
  const unitAmount = optionalInteger(params, "unit_amount");
  if (unitAmount === undefined) throw missingParam("unit_amount");
  if (unitAmount < 0) throw invalidRequest("This value must be greater than or equal to 0.", { param: "unit_amount" });
  const recurringParams = optionalObject(params, "recurring");
  let recurring: StripeObject | null = null;
  if (recurringParams) {
    const interval = requiredString(recurringParams, "interval");
    if (!INTERVALS.includes(interval))
      throw invalidRequest(`Invalid recurring[interval]: must be one of day, month, week, or year`, { param: "recurring[interval]" });
    const intervalCount = optionalInteger(recurringParams, "interval_count") ?? 1;
    recurring = {
      interval,
      interval_count: intervalCount,
      meter: null,
      trial_period_days: null,
      usage_type: optionalString(recurringParams, "usage_type") ?? "licensed",
    };
  }
  const lookupKey = optionalString(params, "lookup_key") || null;
  if (lookupKey) claimLookupKey(store, lookupKey, optionalBoolean(params, "transfer_lookup_key") ?? false);
  return store.put({
    id: store.newId("price_"),
    object: "price",
    active: optionalBoolean(params, "active") ?? true,
    billing_scheme: "per_unit",
    created: store.now(),
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: lookupKey,
    metadata: mergeMetadata({}, params),
    nickname: optionalString(params, "nickname") || null,
    product: productId,
    recurring,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? "recurring" : "one_time",
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
  });
}

/** A lookup key names one price; `transfer_lookup_key=true` takes it from the price that has it. */
function claimLookupKey(store: StripeStore, lookupKey: string, transfer: boolean, except?: string) {
  const holder = store.all("price").find((price) => price.lookup_key === lookupKey && price.id !== except);
  if (!holder) return;
  if (!transfer) throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, { param: "lookup_key" });
  holder.lookup_key = null;
}

/** The `plan` a subscription item shows beside its `price`. */
export function planOf(price: StripeObject): StripeObject {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? null,
    interval_count: price.recurring?.interval_count ?? null,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: price.recurring?.usage_type ?? "licensed",
  };
}

function updateProduct(store: StripeStore, id: string, params: Params): StripeObject {
  const product = store.find("product", id);
  const name = optionalString(params, "name");
  if (name) product.name = name;
  const active = optionalBoolean(params, "active");
  if (active !== undefined) product.active = active;
  const description = optionalString(params, "description");
  if (description !== undefined) product.description = description || null;
  product.metadata = mergeMetadata(product.metadata, params);
  product.updated = store.now();
  return product;
}

function updatePrice(store: StripeStore, id: string, params: Params): StripeObject {
  const price = store.find("price", id);
  const active = optionalBoolean(params, "active");
  if (active !== undefined) price.active = active;
  const nickname = optionalString(params, "nickname");
  if (nickname !== undefined) price.nickname = nickname || null;
  const lookupKey = optionalString(params, "lookup_key");
  if (lookupKey !== undefined) {
    if (lookupKey) claimLookupKey(store, lookupKey, optionalBoolean(params, "transfer_lookup_key") ?? false, price.id);
    price.lookup_key = lookupKey || null;
  }
  price.metadata = mergeMetadata(price.metadata, params);
  return price;
}

function listPrices(store: StripeStore, params: Params): StripeObject {
  const lookupKeys = stringList(params, "lookup_keys");
  if (lookupKeys && lookupKeys.length > 10) throw invalidRequest("You may only specify up to 10 lookup keys.", { param: "lookup_keys" });
  const active = optionalBoolean(params, "active");
  const product = optionalString(params, "product");
  const type = optionalString(params, "type");
  const currency = optionalString(params, "currency");
  const prices = store
    .all("price")
    .filter((price) => !lookupKeys || lookupKeys.includes(price.lookup_key))
    .filter((price) => active === undefined || price.active === active)
    .filter((price) => !product || price.product === product)
    .filter((price) => !type || price.type === type)
    .filter((price) => !currency || price.currency === currency);
  return listPage(prices, params, "/v1/prices");
}

function listProducts(store: StripeStore, params: Params): StripeObject {
  const active = optionalBoolean(params, "active");
  const ids = stringList(params, "ids");
  const products = store
    .all("product")
    .filter((product) => active === undefined || product.active === active)
    .filter((product) => !ids || ids.includes(product.id));
  return listPage(products, params, "/v1/products");
}

export const catalogRoutes: ApiRoute[] = [
  { method: "POST", path: "/v1/products", handle: ({ store, params }) => createProduct(store, params) },
  { method: "GET", path: "/v1/products", handle: ({ store, params }) => listProducts(store, params) },
  { method: "GET", path: "/v1/products/:id", handle: ({ store, id }) => store.find("product", id) },
  { method: "POST", path: "/v1/products/:id", handle: ({ store, id, params }) => updateProduct(store, id, params) },
  { method: "POST", path: "/v1/prices", handle: ({ store, params }) => createPrice(store, params) },
  { method: "GET", path: "/v1/prices", handle: ({ store, params }) => listPrices(store, params) },
  { method: "GET", path: "/v1/prices/:id", handle: ({ store, id }) => store.find("price", id) },
  { method: "POST", path: "/v1/prices/:id", handle: ({ store, id, params }) => updatePrice(store, id, params) },
];

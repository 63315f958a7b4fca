import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// `expand[]`: each dotted path replaces an id with the object it names (`data.product` on a price
// list, `items.data.price.product`, `latest_invoice.payments`), and fills the fields Stripe includes
// only when asked (a checkout session's `line_items`, an invoice's `payments`).

const MAX_DEPTH = 4;

export function expandPaths(store: StripeStore, object: StripeObject, paths: string[]): StripeObject {
  const copy = structuredClone(object);
  for (const path of paths) {
    const segments = path.split(".");
    if (segments.length > MAX_DEPTH)
      throw invalidRequest(`You cannot expand more than ${MAX_DEPTH} levels of a property. Property: ${path}`, { param: "expand" });
    expandInto(store, copy, segments, path);
  }
  return copy;
}

function expandInto(store: StripeStore, holder: StripeObject, segments: string[], path: string) {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  if (holder.object === "list" && segment === "data") {
    for (const item of holder.data as StripeObject[]) expandInto(store, item, rest, path);
    return;
  }
  let value = holder[segment];
  const included = includable(store, holder, segment);
  if (included !== undefined) value = included;
  else if (typeof value === "string") {
    const target = store.objects.get(value);
    if (!target) throw invalidRequest(`This property cannot be expanded (${segment}).`, { param: "expand" });
    value = structuredClone(target);
  } else if (value === null) {
    return;
  } else if (typeof value !== "object") {
    throw invalidRequest(`This property cannot be expanded (${path}).`, { param: "expand" });
  }
  holder[segment] = value;
  expandInto(store, value as StripeObject, rest, path);
}

/** Fields Stripe leaves out unless expanded. */
function includable(store: StripeStore, holder: StripeObject, field: string): StripeObject | undefined {
  if (holder.object === "checkout.session" && field === "line_items") {
    return {
      object: "list",
      data: structuredClone(store.lineItems.get(holder.id) ?? []),
      has_more: false,
      url: `/v1/checkout/sessions/${holder.id}/line_items`,
    };
  }
  if (holder.object === "invoice" && field === "payments") {
    const payments = store.invoicePayments.get(holder.id) ?? [];
    return { object: "list", data: structuredClone(payments), has_more: false, url: `/v1/invoice_payments?invoice=${holder.id}` };
  }
  return undefined;
}

import { invalidRequest } from "@/tests/fakes/stripe/stripe-errors";
import type { Params } from "@/tests/fakes/stripe/form";
import { optionalInteger, optionalString } from "@/tests/fakes/stripe/params";
import type { StripeObject } from "@/tests/fakes/stripe/store";

// Stripe's list envelope `{object: "list", data, has_more, url}` with `limit` (1..100, default 10),
// `starting_after` and `ending_before` cursors over newest-first data.

export function listPage(items: StripeObject[], params: Params, url: string): StripeObject {
  const limit = optionalInteger(params, "limit") ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidRequest("This value must be greater than or equal to 1 and less than or equal to 100.", { param: "limit" });
  const startingAfter = optionalString(params, "starting_after");
  const endingBefore = optionalString(params, "ending_before");
  let window = items;
  if (startingAfter) window = items.slice(cursorIndex(items, startingAfter, "starting_after") + 1);
  else if (endingBefore) window = items.slice(0, cursorIndex(items, endingBefore, "ending_before")).slice(-limit);
  return { object: "list", data: window.slice(0, limit), has_more: window.length > limit, url };
}

/** A list as it sits inside another object (`items`, `lines`): everything, no cursor. */
export function embeddedList(data: StripeObject[], url: string): StripeObject {
  return { object: "list", data, has_more: false, total_count: data.length, url };
}

function cursorIndex(items: StripeObject[], id: string, param: string): number {
  const index = items.findIndex((item) => item.id === id);
  if (index === -1) throw invalidRequest(`No such object: '${id}'`, { param, code: "resource_missing", status: 404 });
  return index;
}

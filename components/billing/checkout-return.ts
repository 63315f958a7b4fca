import type { CheckoutReturn, CheckoutReturnKind } from "./billing-types";

// Reads where Stripe sent the browser back from (server/billing/billing-urls.ts builds them):
// `?checkout=success|canceled` after a plan's Checkout, `?pack=success|canceled` after a pack's,
// `?card=saved|canceled` after saving the auto top-up card (Checkout in setup mode), and
// `?top_up=paid|canceled` after the Checkout that pays an auto top-up the bank wanted confirmed.

const params: Array<[param: string, kind: CheckoutReturnKind, success: string]> = [
  ["checkout", "plan", "success"],
  ["pack", "pack", "success"],
  ["card", "card", "saved"],
  ["top_up", "top_up", "paid"],
];

export function checkoutReturnOf(query: Record<string, string | string[] | undefined>): CheckoutReturn {
  for (const [param, kind, success] of params) {
    const value = query[param];
    if (value === success) return { kind, outcome: "success" };
    if (value === "canceled") return { kind, outcome: "canceled" };
  }
  return null;
}

import type { CheckoutReturn } from "./billing-types";

// Reads where Stripe sent the browser back from: `?checkout=success|canceled` after a plan's
// Checkout, `?pack=success|canceled` after a pack's (server/billing/billing-urls.ts builds them).

export function checkoutReturnOf(query: Record<string, string | string[] | undefined>): CheckoutReturn {
  for (const [param, kind] of [
    ["checkout", "plan"],
    ["pack", "pack"],
  ] as const) {
    const value = query[param];
    if (value === "success" || value === "canceled") return { kind, outcome: value };
  }
  return null;
}

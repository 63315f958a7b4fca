import type { BillingCatalog, BillingOverview, CatalogPrice } from "./billing-types";

// What the page offers, from the same facts the server checks (the server refuses anyway): why
// a buy button is off, whether plan changes go through the Customer Portal, whether packs are on sale.

const LIVE = ["active", "trialing", "past_due"] as const;
const PACKS_ON_TOP_OF = ["active", "trialing"] as const;

/** A Stripe subscription that still holds the plan: switching goes through the Portal, not a new Checkout. */
export function hasLiveStripeSubscription(overview: BillingOverview): boolean {
  return overview.managedBy === "stripe" && (LIVE as readonly string[]).includes(overview.summary.billing_subscription_status);
}

/** Packs are sold on top of an active or trialing subscription; a contract plan's row is active. */
export function packsOnSale(overview: BillingOverview): boolean {
  return (
    overview.managedBy === "contract" ||
    (overview.managedBy === "stripe" && (PACKS_ON_TOP_OF as readonly string[]).includes(overview.summary.billing_subscription_status))
  );
}

/** Why nothing can be bought at all right now, or null. */
export function purchaseBlockedReason(overview: BillingOverview, catalog: BillingCatalog | undefined): string | null {
  if (!overview.configured) return "Billing is not configured on this deployment.";
  if (!overview.canPurchase) return overview.readOnlyReason ?? "Only the primary owner can buy.";
  if (catalog && !catalog.stripeReachable) return "Stripe could not be reached; try again in a minute.";
  return null;
}

/** Why this one price cannot be bought, or null. */
export function priceBlockedReason(price: CatalogPrice, overview: BillingOverview): string | null {
  return overview.configured && !price.available ? "This price is not set up in Stripe yet: an operator runs stripe:setup." : null;
}

/** Whether the Customer Portal (payment method, invoices, plan switch, cancellation) can be opened. */
export function portalAvailable(overview: BillingOverview): boolean {
  return overview.configured && overview.hasStripeCustomer;
}

import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// The shapes the billing router answers with, as the billing page's components use them.

type BillingOutputs = inferRouterOutputs<AppRouter>["billing"];

export type BillingOverview = BillingOutputs["overview"];
export type BillingSummary = BillingOverview["summary"];
export type SubscriptionStatusName = BillingSummary["billing_subscription_status"];
export type BillingCatalog = BillingOutputs["catalog"];
export type CatalogPlan = BillingCatalog["plans"][number];
export type PlanName = CatalogPlan["plan"];
export type BillingInterval = CatalogPlan["intervals"][number]["interval"];
export type CatalogPrice = CatalogPlan["intervals"][number]["price"];
export type CreditPack = BillingCatalog["packs"][number];
export type PackCredits = CreditPack["credits"];
export type OrderRow = BillingOutputs["orders"]["items"][number];
export type OrderStatus = OrderRow["status"];
export type LedgerRow = BillingOutputs["ledger"]["items"][number];
export type LedgerEntryType = LedgerRow["type"];

/** Where a Checkout or Portal visit sent the browser back (`?checkout=` / `?pack=` on the billing URL). */
export type CheckoutReturn = { kind: "plan" | "pack"; outcome: "success" | "canceled" } | null;

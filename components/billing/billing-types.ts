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
export type OrderKind = OrderRow["kind"];
export type LedgerRow = BillingOutputs["ledger"]["items"][number];
export type LedgerEntryType = LedgerRow["type"];
export type AutoTopUpView = BillingOutputs["autoTopUp"];
export type AutoTopUpCard = NonNullable<AutoTopUpView["card"]>;

/**
 * Where a Stripe visit sent the browser back: a plan's or a pack's Checkout (`?checkout=` / `?pack=`),
 * the card setup for auto top-up (`?card=saved|canceled`), or the Checkout that pays an auto
 * top-up the bank wanted confirmed (`?top_up=paid|canceled`).
 */
export type CheckoutReturnKind = "plan" | "pack" | "card" | "top_up";
export type CheckoutReturn = { kind: CheckoutReturnKind; outcome: "success" | "canceled" } | null;

import "server-only";
import { log } from "../base/log";
import {
  catalogItems,
  defaultAmountCents,
  lookupKeyOf,
  paidPlans,
  packSizes,
  periodCreditsMillis,
  billingIntervals,
} from "./price-catalog";
import { billingConfigured, stripeClient } from "./stripe-client";
import { listCatalogPrices } from "./stripe-prices";

// What the billing page offers: each plan's monthly and yearly price and credits, each pack's
// price. Prices come from Stripe (by lookup key) when billing is configured; a price missing there
// is shown as unavailable (an operator runs stripe:setup). Without Stripe the defaults are shown
// for reference and nothing can be bought.

export type PriceView = { lookupKey: string; amountCents: number; currency: string; available: boolean };

export async function billingCatalogView() {
  const configured = billingConfigured();
  let prices = new Map<string, { unitAmount: number; currency: string }>();
  let stripeReachable = configured;
  if (configured) {
    try {
      prices = await listCatalogPrices(stripeClient());
    } catch (error) {
      stripeReachable = false;
      log.warn("billing: Stripe prices could not be read", { error: error instanceof Error ? error.message : String(error) });
    }
  }
  const priceOf = (lookupKey: string, fallbackCents: number): PriceView => {
    const price = prices.get(lookupKey);
    return price
      ? { lookupKey, amountCents: price.unitAmount, currency: price.currency, available: true }
      : { lookupKey, amountCents: fallbackCents, currency: "usd", available: false };
  };
  const item = (key: string) => catalogItems.find((entry) => lookupKeyOf(entry) === key)!;
  return {
    configured,
    stripeReachable,
    plans: paidPlans.map((plan) => ({
      plan,
      intervals: billingIntervals.map((interval) => {
        const key = lookupKeyOf({ kind: "plan", plan, interval });
        return {
          interval,
          credits: (periodCreditsMillis(plan, interval) / 1000).toFixed(0),
          price: priceOf(key, defaultAmountCents(item(key))),
        };
      }),
    })),
    packs: packSizes.map((credits) => {
      const key = lookupKeyOf({ kind: "pack", credits });
      return { credits, price: priceOf(key, defaultAmountCents(item(key))) };
    }),
  };
}

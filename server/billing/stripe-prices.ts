import type Stripe from "stripe";
import { invalidRequest } from "../base/error-table";
import { catalogItems, lookupKeyOf, parseLookupKey, type CatalogItem } from "./price-catalog";

// Prices found in Stripe by lookup key, remembered for a minute (the billing page and every
// Checkout ask for them). Stripe answers at most 10 lookup keys per list call.

export type CatalogPrice = { item: CatalogItem; lookupKey: string; priceId: string; unitAmount: number; currency: string };

const TTL_MS = 60_000;
let cache: { at: number; client: Stripe; prices: Map<string, CatalogPrice> } | undefined;

export async function listCatalogPrices(stripe: Stripe, { fresh = false } = {}): Promise<Map<string, CatalogPrice>> {
  if (!fresh && cache && cache.client === stripe && Date.now() - cache.at < TTL_MS) return cache.prices;
  const keys = catalogItems.map(lookupKeyOf);
  const prices = new Map<string, CatalogPrice>();
  for (let start = 0; start < keys.length; start += 10) {
    const page = await stripe.prices.list({ lookup_keys: keys.slice(start, start + 10), active: true, limit: 10 });
    for (const price of page.data) {
      const item = parseLookupKey(price.lookup_key);
      if (!item || price.unit_amount === null) continue;
      prices.set(price.lookup_key!, {
        item,
        lookupKey: price.lookup_key!,
        priceId: price.id,
        unitAmount: price.unit_amount,
        currency: price.currency,
      });
    }
  }
  cache = { at: Date.now(), client: stripe, prices };
  return prices;
}

/** The active price for a lookup key, or ERR1001 naming the command that creates it. */
export async function findCatalogPrice(stripe: Stripe, item: CatalogItem): Promise<CatalogPrice> {
  const key = lookupKeyOf(item);
  const price = (await listCatalogPrices(stripe)).get(key) ?? (await listCatalogPrices(stripe, { fresh: true })).get(key);
  if (!price)
    throw invalidRequest(`No active Stripe price has the lookup key ${key}; an operator creates it with \`npm run cli -- stripe:setup\`.`, [
      { field: "price", message: "missing" },
    ]);
  return price;
}

export function forgetCatalogPrices() {
  cache = undefined;
}

import type Stripe from "stripe";
import { invalidRequest } from "../base/error-table";
import { catalogItems, defaultAmountCents, lookupKeyOf, parseLookupKey, productOf, type CatalogItem } from "./price-catalog";
import { forgetCatalogPrices } from "./stripe-prices";

// `npm run cli -- stripe:setup`: creates the products and prices that are missing in the
// configured Stripe account and leaves the rest alone, so a second run creates nothing.
// Products have fixed ids (darkroom_plan_pro, darkroom_pack_10); prices are found by lookup key.

export type SetupResult = { created: string[]; existing: string[]; products_created: string[] };

/** "darkroom_pro_month=25,darkroom_pack_10=12": USD amounts that replace the defaults. */
export function parseAmountOverrides(value: string | undefined): Map<string, number> {
  const overrides = new Map<string, number>();
  for (const pair of (value ?? "").split(",").filter((part) => part.trim() !== "")) {
    const [key = "", amount = ""] = pair.split("=").map((part) => part.trim());
    if (!parseLookupKey(key))
      throw invalidRequest(`Unknown lookup key in --amounts: ${key}.`, [{ field: "amounts", message: `unknown lookup key ${key}` }]);
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) {
      throw invalidRequest(`--amounts needs a positive USD amount for ${key}, like ${key}=25.`, [
        { field: "amounts", message: `bad amount for ${key}` },
      ]);
    }
    overrides.set(key, Math.round(Number(amount) * 100));
  }
  return overrides;
}

async function ensureProduct(stripe: Stripe, item: CatalogItem, created: string[]): Promise<string> {
  const product = productOf(item);
  try {
    await stripe.products.retrieve(product.id);
  } catch (error) {
    if ((error as { code?: string }).code !== "resource_missing") throw error;
    await stripe.products.create(
      { id: product.id, name: product.name, metadata: { darkroom: "catalog" } },
      { idempotencyKey: `darkroom-setup-product-${product.id}` },
    );
    created.push(product.id);
  }
  return product.id;
}

export async function setupStripeCatalog(stripe: Stripe, overrides = new Map<string, number>()): Promise<SetupResult> {
  const keys = catalogItems.map(lookupKeyOf);
  const found = new Set<string>();
  for (let start = 0; start < keys.length; start += 10) {
    const page = await stripe.prices.list({ lookup_keys: keys.slice(start, start + 10), active: true, limit: 10 });
    for (const price of page.data) if (price.lookup_key) found.add(price.lookup_key);
  }
  const result: SetupResult = { created: [], existing: [], products_created: [] };
  const products = new Map<string, string>();
  for (const item of catalogItems) {
    const key = lookupKeyOf(item);
    if (found.has(key)) {
      result.existing.push(key);
      continue;
    }
    const productId = products.get(productOf(item).id) ?? (await ensureProduct(stripe, item, result.products_created));
    products.set(productId, productId);
    const unitAmount = overrides.get(key) ?? defaultAmountCents(item);
    await stripe.prices.create({
      product: productId,
      currency: "usd",
      unit_amount: unitAmount,
      lookup_key: key,
      nickname: key,
      ...(item.kind === "plan" ? { recurring: { interval: item.interval } } : {}),
      metadata: { darkroom: "catalog" },
    });
    result.created.push(key);
  }
  forgetCatalogPrices();
  return result;
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeClientFor } from "@/server/billing/stripe-client";
import { disconnectDb } from "@/server/base/db";
import { startStripeFake, type StripeFake } from "@/tests/fakes/stripe-fake";
import { cli } from "@/tests/support/cli";

// `npm run cli -- stripe:setup` against a Stripe of its own (a fresh fake): creates the missing
// products and prices, named by lookup key, and nothing on a second run.

let stripe: StripeFake;
beforeAll(async () => {
  stripe = await startStripeFake();
});
afterAll(async () => {
  await stripe.close();
  await disconnectDb();
});

const withFake = () => ({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.baseUrl });

describe("stripe:setup", () => {
  it("creates the 14 prices (amount = credits unless overridden) and 10 products, then nothing on a second run", async () => {
    const first = await cli(["stripe:setup", "--amounts", "darkroom_pro_month=25"], withFake());
    expect(first.code).toBe(0);
    expect(first.body.created).toHaveLength(14);
    expect(first.body.existing).toEqual([]);
    expect(first.body.products_created).toHaveLength(10);

    const client = stripeClientFor(stripe.secretKey, stripe.baseUrl);
    const prices = await client.prices.list({ lookup_keys: ["darkroom_pro_month", "darkroom_pro_year", "darkroom_pack_500"], limit: 10 });
    const byKey = Object.fromEntries(prices.data.map((price) => [price.lookup_key, price]));
    expect(byKey.darkroom_pro_month).toMatchObject({
      unit_amount: 2500,
      currency: "usd",
      recurring: { interval: "month" },
      product: "darkroom_plan_pro",
    });
    expect(byKey.darkroom_pro_year).toMatchObject({ unit_amount: 29000, recurring: { interval: "year" }, product: "darkroom_plan_pro" });
    expect(byKey.darkroom_pack_500).toMatchObject({ unit_amount: 50000, type: "one_time", product: "darkroom_pack_500" });

    const second = await cli(["stripe:setup"], withFake());
    expect(second.code).toBe(0);
    expect(second.body).toMatchObject({ created: [], products_created: [] });
    expect(second.body.existing).toHaveLength(14);
  });

  it("refuses bad --amounts and a deployment without STRIPE_SECRET_KEY (ERR1001, exit 2)", async () => {
    const bad = await cli(["stripe:setup", "--amounts", "darkroom_gold_month=5"], withFake());
    expect(bad.code).toBe(2);
    expect(bad.body.error.code).toBe("ERR1001");
    const unconfigured = await cli(["stripe:setup"], { STRIPE_SECRET_KEY: "", STRIPE_API_BASE: stripe.baseUrl });
    expect(unconfigured.code).toBe(2);
    expect(unconfigured.body.error.message).toMatch(/not configured/);
  });
});

import { describe, expect, it } from "vitest";
import { followingPeriod, periodStartAt } from "@/server/billing/manual-plans";
import { catalogItems, defaultAmountCents, lookupKeyOf, parseLookupKey, periodCreditsMillis } from "@/server/billing/price-catalog";
import { parseAmountOverrides } from "@/server/billing/setup-stripe-catalog";
import { errorOf } from "@/tests/support/api-error";

// The catalog by lookup key, default prices (1 credit = 1 USD), --amounts parsing, and contract
// periods anchored like Stripe's billing cycle anchor.

describe("lookup keys", () => {
  it("name every plan interval and pack, and parse back to the same item", () => {
    expect(catalogItems.map(lookupKeyOf)).toEqual([
      "darkroom_starter_month",
      "darkroom_starter_year",
      "darkroom_pro_month",
      "darkroom_pro_year",
      "darkroom_scale_month",
      "darkroom_scale_year",
      "darkroom_enterprise_month",
      "darkroom_enterprise_year",
      "darkroom_pack_10",
      "darkroom_pack_25",
      "darkroom_pack_50",
      "darkroom_pack_100",
      "darkroom_pack_500",
      "darkroom_pack_1000",
    ]);
    for (const item of catalogItems) expect(parseLookupKey(lookupKeyOf(item))).toEqual(item);
  });

  it("refuse anything else", () => {
    for (const key of [
      "darkroom_free_month",
      "darkroom_pro_week",
      "darkroom_pack_11",
      "darkroom_pack_",
      "pro_month",
      "",
      null,
      undefined,
      "darkroom_pro_month_x",
    ])
      expect(parseLookupKey(key)).toBeNull();
  });

  it("price plans and packs at their credits by default and grant the spec's monthly and yearly credits", () => {
    expect(defaultAmountCents({ kind: "plan", plan: "pro", interval: "month" })).toBe(2900);
    expect(defaultAmountCents({ kind: "plan", plan: "enterprise", interval: "year" })).toBe(249000);
    expect(defaultAmountCents({ kind: "pack", credits: 1000 })).toBe(100000);
    expect([periodCreditsMillis("starter", "month"), periodCreditsMillis("starter", "year"), periodCreditsMillis("scale", "year")]).toEqual(
      [9000, 90000, 790000],
    );
  });

  it("parse --amounts overrides in USD and refuse unknown keys or bad amounts", () => {
    expect([...parseAmountOverrides("darkroom_pro_month=25, darkroom_pack_10=12.5")]).toEqual([
      ["darkroom_pro_month", 2500],
      ["darkroom_pack_10", 1250],
    ]);
    expect(parseAmountOverrides(undefined).size).toBe(0);
    expect(errorOf(() => parseAmountOverrides("darkroom_gold_month=5")).code).toBe("ERR1001");
    expect(errorOf(() => parseAmountOverrides("darkroom_pro_month=0")).code).toBe("ERR1001");
    expect(errorOf(() => parseAmountOverrides("darkroom_pro_month=ten")).code).toBe("ERR1001");
  });
});

describe("contract periods", () => {
  const anchor = new Date("2026-01-31T09:30:00Z");

  it("keep the anchor's day, or the month's last day when the month is shorter", () => {
    expect([0, 1, 2, 3, 12, 13].map((n) => periodStartAt(anchor, "month", n).toISOString())).toEqual([
      "2026-01-31T09:30:00.000Z",
      "2026-02-28T09:30:00.000Z",
      "2026-03-31T09:30:00.000Z",
      "2026-04-30T09:30:00.000Z",
      "2027-01-31T09:30:00.000Z",
      "2027-02-28T09:30:00.000Z",
    ]);
    expect(periodStartAt(new Date("2028-02-29T00:00:00Z"), "year", 1).toISOString()).toBe("2029-02-28T00:00:00.000Z");
    expect(periodStartAt(new Date("2028-02-29T00:00:00Z"), "year", 4).toISOString()).toBe("2032-02-29T00:00:00.000Z");
  });

  it("follow one another without drifting", () => {
    let end = periodStartAt(anchor, "month", 1);
    const starts: string[] = [];
    for (let index = 0; index < 4; index++) {
      const next = followingPeriod(anchor, "month", end);
      starts.push(next.start.toISOString().slice(0, 10));
      end = next.end;
    }
    expect(starts).toEqual(["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]);
    expect(followingPeriod(anchor, "year", periodStartAt(anchor, "year", 1)).end.toISOString()).toBe("2028-01-31T09:30:00.000Z");
  });
});

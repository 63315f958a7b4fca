import { describe, expect, it } from "vitest";
import { ApiError } from "@/server/base/error-table";
import { API_FIELDS, parseAutoTopUp, viewOf } from "@/server/billing/auto-top-up/setting";
import { monthStart } from "@/server/billing/auto-top-up/monthly-spend";

// The auto top-up setting's parse (ERR1001 naming the field, in the API's or the CLI's words) and
// its view (what GET /v1/user/billing and the billing page show).

const fieldOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("ERR1001");
    return ((error as ApiError).details.fields as Array<{ field: string }>)[0]?.field;
  }
  throw new Error("expected ERR1001");
};

describe("auto top-up setting", () => {
  it("parses credits to millicredits, the pack, and the cap to cents", () => {
    expect(parseAutoTopUp({ threshold: "5.5", pack: 25, monthlyCap: "100.50" })).toEqual({
      thresholdMillis: 5500,
      packCredits: 25,
      monthlyCapCents: 10050,
    });
    expect(parseAutoTopUp({ threshold: 0.001, pack: "1000", monthlyCap: 1 })).toEqual({
      thresholdMillis: 1,
      packCredits: 1000,
      monthlyCapCents: 100,
    });
  });

  it("names the field of each bad value, in the caller's words", () => {
    const good = { threshold: 5, pack: 25, monthlyCap: 100 };
    expect(fieldOf(() => parseAutoTopUp({ ...good, threshold: 0 }))).toBe("threshold");
    expect(fieldOf(() => parseAutoTopUp({ ...good, threshold: "abc" }))).toBe("threshold");
    expect(fieldOf(() => parseAutoTopUp({ ...good, threshold: "1.2345" }))).toBe("threshold");
    for (const pack of [7, "25.0", "", 0, "ten"]) expect(fieldOf(() => parseAutoTopUp({ ...good, pack }))).toBe("pack");
    for (const monthlyCap of [0, "-1", "1.234", "", "1e3"])
      expect(fieldOf(() => parseAutoTopUp({ ...good, monthlyCap }))).toBe("monthly_cap");
    const cli = { threshold: "below", pack: "pack", monthlyCap: "monthly-cap" };
    expect(fieldOf(() => parseAutoTopUp({ ...good, threshold: -1 }, cli))).toBe("below");
    expect(fieldOf(() => parseAutoTopUp({ ...good, monthlyCap: "x" }, cli))).toBe("monthly-cap");
    expect(API_FIELDS.monthlyCap).toBe("monthly_cap");
  });

  it("shows a missing setting as off, and a saved one with its card, cap and month's spending", () => {
    expect(viewOf(null, 0)).toMatchObject({
      enabled: false,
      threshold: null,
      pack: null,
      monthly_cap: null,
      card: null,
      spent_this_month: 0,
    });
    const view = viewOf(
      {
        accountId: "00000000-0000-4000-8000-000000000001",
        enabled: true,
        threshold: { toFixed: () => "5.250" } as never,
        packCredits: 25,
        packAmountCents: 2500,
        currency: "usd",
        monthlyCapCents: 10000,
        paymentMethodId: "pm_1",
        cardBrand: "visa",
        cardLast4: "4242",
        cardExpMonth: 12,
        cardExpYear: 2034,
        pausedAt: null,
        pauseReason: null,
        consecutiveFailures: 1,
        lastAttemptAt: null,
        lastFailureReason: "Your card was declined. (card_declined)",
        lastFailureAt: new Date("2026-12-03T06:00:00.000Z"),
        updatedById: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
      2500,
    );
    expect(view).toEqual({
      enabled: true,
      threshold: 5.25,
      pack: 25,
      monthly_cap: 100,
      pack_price: 25,
      spent_this_month: 25,
      currency: "usd",
      paused: false,
      pause_reason: null,
      consecutive_failures: 1,
      last_failure: { reason: "Your card was declined. (card_declined)", at: "2026-12-03T06:00:00.000Z" },
      card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 },
    });
  });

  it("counts the cap by calendar month in UTC", () => {
    expect(monthStart(new Date("2026-12-31T23:59:59.999Z")).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(monthStart(new Date("2027-01-01T00:00:00.000Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});

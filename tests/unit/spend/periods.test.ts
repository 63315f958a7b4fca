import { describe, expect, it } from "vitest";
import { periodFirstDay, periodResetsAt, periodStart } from "@/server/spend/periods";
import { parseSpendLimit, parseSpendPeriod } from "@/server/spend/spend-limit-input";
import { ApiError } from "@/server/base/error-table";

// Spend periods in UTC: a day from midnight, a week from Monday, a calendar month, or total.

const at = (iso: string) => new Date(iso);

describe("spend periods", () => {
  it("a day runs from 00:00 UTC to the next midnight", () => {
    expect(periodStart("day", at("2031-03-05T23:59:59.999Z")).toISOString()).toBe("2031-03-05T00:00:00.000Z");
    expect(periodResetsAt("day", at("2031-03-05T23:59:59.999Z"))?.toISOString()).toBe("2031-03-06T00:00:00.000Z");
    expect(periodFirstDay("day", at("2031-03-06T00:00:00.000Z"))).toBe("2031-03-06");
  });

  it("a week starts on Monday 00:00 UTC, whatever the weekday", () => {
    // 2031-03-10 is a Monday.
    for (const iso of ["2031-03-10T00:00:00.000Z", "2031-03-12T15:00:00.000Z", "2031-03-16T23:59:59.999Z"]) {
      expect(periodStart("week", at(iso)).toISOString()).toBe("2031-03-10T00:00:00.000Z");
      expect(periodResetsAt("week", at(iso))?.toISOString()).toBe("2031-03-17T00:00:00.000Z");
    }
    expect(periodStart("week", at("2031-03-09T23:59:59.999Z")).toISOString()).toBe("2031-03-03T00:00:00.000Z");
  });

  it("a month is the calendar month, across year ends and leap days", () => {
    expect(periodStart("month", at("2032-02-29T12:00:00.000Z")).toISOString()).toBe("2032-02-01T00:00:00.000Z");
    expect(periodResetsAt("month", at("2032-02-29T12:00:00.000Z"))?.toISOString()).toBe("2032-03-01T00:00:00.000Z");
    expect(periodResetsAt("month", at("2031-12-31T23:59:59.999Z"))?.toISOString()).toBe("2032-01-01T00:00:00.000Z");
  });

  it("total never resets", () => {
    expect(periodStart("total", at("2031-03-05T10:00:00.000Z")).getTime()).toBe(0);
    expect(periodResetsAt("total", at("2031-03-05T10:00:00.000Z"))).toBeNull();
    expect(periodFirstDay("total", at("2031-03-05T10:00:00.000Z"))).toBe("1970-01-01");
  });
});

describe("spend limit input", () => {
  it("takes credits to 3 decimals, or none", () => {
    expect(parseSpendLimit("12.345")).toBe(12_345);
    expect(parseSpendLimit(0.5)).toBe(500);
    expect(parseSpendLimit("0")).toBe(0);
    expect(parseSpendLimit("none")).toBeNull();
    expect(parseSpendLimit(null)).toBeNull();
    expect(parseSpendPeriod("week")).toBe("week");
  });

  it("refuses anything else with ERR1001 naming the field", () => {
    for (const bad of ["-1", "1.2345", "ten", "1e3", "", "1000000000"]) {
      const error = (() => {
        try {
          parseSpendLimit(bad, "spend-limit");
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, bad).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("ERR1001");
      expect(JSON.stringify((error as ApiError).details)).toContain("spend-limit");
    }
    expect(() => parseSpendPeriod("year")).toThrow(ApiError);
  });
});

import { describe, expect, it } from "vitest";
import { valueAxis } from "@/components/ui/chart-axis";

// The dashboard charts' y axes: distinct ticks, labelled distinctly, covering the tallest bar.

const labels = (values: number[], unit: "count" | "credits") => {
  const axis = valueAxis(values, unit);
  return axis.ticks.map(axis.tickFormatter);
};

describe("valueAxis", () => {
  it("a spend of at most 0.002 credits: millicredit steps, three decimals, no repeated label", () => {
    const axis = valueAxis([0, 0.001, 0.002], "credits");
    expect(axis.ticks).toEqual([0, 0.001, 0.002]);
    expect(axis.ticks.map(axis.tickFormatter)).toEqual(["0.000", "0.001", "0.002"]);
    expect(axis.domain).toEqual([0, 0.002]);
  });

  it("never repeats a label and always reaches the tallest bar, over many maxima and both units", () => {
    const maxima = [0.001, 0.002, 0.003, 0.007, 0.013, 0.02, 0.05, 0.099, 0.1, 0.25, 1, 1.5, 3.333, 7, 12, 99.999, 1234.5, 50_000];
    for (const unit of ["count", "credits"] as const) {
      for (const max of unit === "count" ? [1, 2, 3, 5, 7, 9, 11, 40, 99, 101, 1234, 50_000] : maxima) {
        const axis = valueAxis([max / 3, max], unit);
        const shown = axis.ticks.map(axis.tickFormatter);
        expect(new Set(shown).size, `${unit} ${max}: ${shown.join(", ")}`).toBe(shown.length);
        expect(axis.domain[1], `${unit} ${max}`).toBeGreaterThanOrEqual(max);
        expect(axis.ticks.length, `${unit} ${max}`).toBeLessThanOrEqual(6);
        expect(axis.ticks[0]).toBe(0);
      }
    }
  });

  it("counts are whole numbers; larger credit amounts keep two decimals", () => {
    expect(labels([3], "count")).toEqual(["0", "1", "2", "3"]);
    expect(labels([40], "count")).toEqual(["0", "10", "20", "30", "40"]);
    expect(labels([1.5], "credits")).toEqual(["0.00", "0.50", "1.00", "1.50"]);
    expect(labels([1234.5], "credits")).toEqual(["0.00", "500.00", "1,000.00", "1,500.00"]);
  });

  it("an empty chart still has an axis: 0 and one unit", () => {
    expect(labels([], "count")).toEqual(["0", "1"]);
    expect(labels([0, 0], "credits")).toEqual(["0.000", "0.001"]);
  });
});

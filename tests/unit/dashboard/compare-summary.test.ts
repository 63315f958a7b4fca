import { describe, expect, it } from "vitest";
import { bestOf } from "@/server/edge/api/playground/compare-runs";

// Compare's summary row: the fastest and the cheapest column, and every column when they tie.

describe("bestOf (Compare's fastest and cheapest)", () => {
  it("names the one column at the least value", () => {
    expect(
      bestOf([
        { id: "a", score: 900 },
        { id: "b", score: 450 },
        { id: "c", score: 1200 },
      ]),
    ).toEqual(["b"]);
  });

  it("names every column at the least value when they tie, in column order", () => {
    expect(
      bestOf([
        { id: "a", score: 0.002 },
        { id: "b", score: 0.004 },
        { id: "c", score: 0.002 },
      ]),
    ).toEqual(["a", "c"]);
  });

  it("skips columns without a value, and names none when no column has one", () => {
    expect(
      bestOf([
        { id: "a", score: null },
        { id: "b", score: 3 },
      ]),
    ).toEqual(["b"]);
    expect(bestOf([{ id: "a", score: null }])).toEqual([]);
    expect(bestOf([])).toEqual([]);
  });
});

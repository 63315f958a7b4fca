import { describe, expect, it } from "vitest";
import { MAX_THRESHOLDS, parseThresholdAmounts } from "@/server/alerts/thresholds";
import { ApiError } from "@/server/base/error-table";

// The list a primary owner may save: up to 10 positive amounts, at most 3 decimals.

function refusal(amounts: Array<string | number>): ApiError {
  try {
    parseThresholdAmounts(amounts);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`accepted ${JSON.stringify(amounts)}`);
}

describe("parseThresholdAmounts", () => {
  it("returns millicredits, de-duplicated, highest first", () => {
    expect(parseThresholdAmounts(["0.5", 2, "10", "2.000", 0.5, " 1.25 "])).toEqual([10_000, 2000, 1250, 500]);
    expect(parseThresholdAmounts([])).toEqual([]);
    expect(parseThresholdAmounts(["0.001"])).toEqual([1]);
  });

  it(`allows ${MAX_THRESHOLDS} distinct amounts, not more`, () => {
    const ten = Array.from({ length: 10 }, (_, index) => index + 1);
    expect(parseThresholdAmounts(ten)).toHaveLength(10);
    expect(parseThresholdAmounts([...ten, 10, "1.0"])).toHaveLength(10);
    const error = refusal([...ten, 11]);
    expect(error.code).toBe("ERR1001");
    expect(error.details).toEqual({ fields: [{ field: "thresholds", message: "at most 10 distinct amounts" }] });
  });

  it("refuses zero, negatives, more than 3 decimals and anything that is not a plain amount, naming the entry", () => {
    for (const bad of [0, "0.000", -0.5, "-1", "0.0005", 1.0001, 0.1 + 0.2, "1e2", "abc", "", Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = refusal(["1", bad]);
      expect(error.code).toBe("ERR1001");
      expect(error.details).toEqual({ fields: [expect.objectContaining({ field: "thresholds[1]" })] });
    }
    expect(refusal([true as unknown as string]).details).toEqual({ fields: [{ field: "thresholds[0]", message: "must be an amount" }] });
    expect(refusal(["1000000000"]).details).toEqual({ fields: [{ field: "thresholds[0]", message: "is too large" }] });
    expect(refusal("1" as unknown as string[]).details).toEqual({ fields: [{ field: "thresholds", message: "must be a list" }] });
  });
});

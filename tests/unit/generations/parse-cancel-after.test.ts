import { describe, expect, it } from "vitest";
import { CANCEL_AFTER_MAX_MS, CANCEL_AFTER_MIN_MS, parseCancelAfter } from "@/server/generations/deadline/parse-cancel-after";
import { readCancelAfter } from "@/server/edge/http/cancel-after";
import { ApiError } from "@/server/base/error-table";

// Cancel-After as Replicate takes it: whole h, m, s, ms, largest first, from 5 s to 24 h.

describe("parseCancelAfter", () => {
  it.each([
    ["5s", 5_000],
    ["90s", 90_000],
    ["5m", 300_000],
    ["1h30m", 5_400_000],
    ["1h30m45s", 5_445_000],
    ["2m500ms", 120_500],
    ["5000ms", 5_000],
    ["1m0s", 60_000],
    ["0h5m", 300_000],
    ["24h", CANCEL_AFTER_MAX_MS],
    ["23h59m59s1000ms", CANCEL_AFTER_MAX_MS],
    ["  90s  ", 90_000],
  ])("takes %j as %d ms", (value, ms) => {
    expect(parseCancelAfter(value)).toEqual({ ok: true, ms });
  });

  it.each([
    ["", "empty"],
    ["   ", "blank"],
    ["90", "a bare number"],
    ["1.5m", "a fraction"],
    ["-30s", "a sign"],
    ["+30s", "a plus sign"],
    ["30 s", "a space inside"],
    ["1m 30s", "a space between parts"],
    ["30S", "an upper-case unit"],
    ["30sec", "a long unit name"],
    ["1d", "days"],
    ["30us", "microseconds"],
    ["30s1m", "units out of order"],
    ["1m1m", "a repeated unit"],
    ["500ms1s", "ms before s"],
    ["m", "a unit without a number"],
    ["h30m", "a missing number"],
    ["1h30", "a trailing number"],
    ["P1D", "an ISO 8601 duration"],
    ["1e3ms", "an exponent"],
    ["1234567890s", "too many digits"],
  ])("refuses %j (%s)", (value) => {
    expect(parseCancelAfter(value)).toEqual({ ok: false, message: expect.stringContaining("duration") });
  });

  it.each([
    ["4s", "under 5 s"],
    ["4999ms", "a millisecond short of 5 s"],
    ["0s", "zero"],
    ["24h1ms", "a millisecond past 24 h"],
    ["25h", "over 24 h"],
    ["1441m", "over 24 h in minutes"],
  ])("refuses %j (%s) as out of bounds", (value) => {
    expect(parseCancelAfter(value)).toEqual({ ok: false, message: "must be from 5s to 24h" });
  });

  it("has the documented bounds", () => {
    expect([CANCEL_AFTER_MIN_MS, CANCEL_AFTER_MAX_MS]).toEqual([5_000, 86_400_000]);
  });
});

describe("readCancelAfter", () => {
  it("is null without the header and the milliseconds with one", () => {
    expect(readCancelAfter(new Headers())).toBeNull();
    expect(readCancelAfter(new Headers({ "cancel-after": "1h30m" }))).toBe(5_400_000);
  });

  it.each(["soon", "4s", "90"])("refuses %j with ERR1001 naming the Cancel-After header", (value) => {
    let thrown: unknown;
    try {
      readCancelAfter(new Headers({ "cancel-after": value }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe("ERR1001");
    expect((thrown as ApiError).details).toEqual({ fields: [{ field: "Cancel-After", message: expect.any(String) }] });
  });
});

import { describe, expect, it } from "vitest";
import { outputExpiresAt, outputKey } from "@/server/storage/output-expiry";

// Output file retention by plan: 1 hour, 12 hours, 1 day, 5 days, 7 days.

describe("outputExpiresAt", () => {
  const completedAt = new Date("2026-03-01T10:00:00.000Z");

  it.each([
    ["free", "2026-03-01T11:00:00.000Z"],
    ["starter", "2026-03-01T22:00:00.000Z"],
    ["pro", "2026-03-02T10:00:00.000Z"],
    ["scale", "2026-03-06T10:00:00.000Z"],
    ["enterprise", "2026-03-08T10:00:00.000Z"],
  ] as const)("keeps %s outputs until %s", (plan, expected) => {
    expect(outputExpiresAt(plan, completedAt).toISOString()).toBe(expected);
  });
});

describe("outputKey", () => {
  it("names outputs by account, generation and index", () => {
    expect(outputKey("acc_1", "gen_2", 0, "png")).toBe("outputs/acc_1/gen_2/0.png");
    expect(outputKey("acc_1", "gen_2", 3, ".MP4")).toBe("outputs/acc_1/gen_2/3.mp4");
  });

  it.each([
    ["a negative index", () => outputKey("a", "g", -1, "png")],
    ["a fractional index", () => outputKey("a", "g", 1.5, "png")],
    ["a bad extension", () => outputKey("a", "g", 0, "p/ng")],
    ["an empty extension", () => outputKey("a", "g", 0, "")],
    ["an id that escapes", () => outputKey("..", "g", 0, "png")],
    ["an id with a slash", () => outputKey("a/b", "g", 0, "png")],
  ])("refuses %s", (_label, make) => {
    expect(make).toThrow();
  });
});

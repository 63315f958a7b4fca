import { describe, expect, it } from "vitest";
import { bugReportInput, isSameOriginPath } from "@/server/bug-reports/bug-report-input";

describe("isSameOriginPath", () => {
  it.each(["/", "/dashboard", "/dashboard/0b6e/keys?status=active&q=a%20b", "/dashboard#top", "/a:b"])("accepts %s", (path) => {
    expect(isSameOriginPath(path)).toBe(true);
  });

  it.each([
    "",
    "dashboard",
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "/a b",
    "/a\nb",
    "javascript:alert(1)",
    "\\\\evil",
    " /dashboard",
  ])("refuses %j", (path) => {
    expect(isSameOriginPath(path)).toBe(false);
  });
});

describe("bugReportInput", () => {
  it("trims the text, drops an empty intent and bounds every field", () => {
    expect(bugReportInput.parse({ description: "  broken  ", intent: "  ", pagePath: "/x" })).toEqual({
      description: "broken",
      intent: undefined,
      pagePath: "/x",
    });
    expect(bugReportInput.safeParse({ description: "a".repeat(5001), pagePath: "/x" }).success).toBe(false);
    expect(bugReportInput.safeParse({ description: "a", intent: "a".repeat(2001), pagePath: "/x" }).success).toBe(false);
    expect(bugReportInput.safeParse({ description: "a", pagePath: `/${"a".repeat(2048)}` }).success).toBe(false);
  });
});

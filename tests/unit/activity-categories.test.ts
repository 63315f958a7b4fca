import { describe, expect, it } from "vitest";
import { activityCategoryList, activityCategoryStyles } from "@/components/activity/activity-categories";
import { ActivityCategory } from "@/server/base/generated/prisma/enums";

// The activity page's category filter offers every category of the spec (§2, activity event).

describe("activity categories", () => {
  it("the filter lists every category of the schema, each with a label", () => {
    expect([...activityCategoryList].sort()).toEqual(Object.values(ActivityCategory).sort());
    expect(Object.values(ActivityCategory)).toEqual(
      expect.arrayContaining([
        "api_key",
        "webhook",
        "credit",
        "generation",
        "subscription",
        "membership",
        "account",
        "invitation",
        "order",
        "billing",
        "notification",
        "auth",
        "domain",
        "consent",
        "bug_report",
      ]),
    );
    for (const category of activityCategoryList) expect(activityCategoryStyles[category].label.length).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { getBilling } from "@/server/edge/http/operations/account";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess, ISO_DATE_TIME } from "@/tests/support/http";

// GET /v1/user/billing (getBilling): plan, balance and subscription state.

describe("200", () => {
  it("returns plan, balance and subscription state", async () => {
    const { key, accountId } = await accountWithKey({ plan: "starter" });
    const data = expectSuccess(await callOperation(getBilling, { key }));
    expect(data).toMatchObject({
      account_id: accountId,
      billing_plan: "starter",
      billing_credit_balance: 1,
      billing_subscription_status: "manual",
      billing_cancel_at_period_end: false,
      billing_currency: "usd",
      billing_period_starts_at: null,
      billing_period_ends_at: null,
    });
    expect(data.billing_created_at).toMatch(ISO_DATE_TIME);
    expect(data.billing_updated_at).toMatch(ISO_DATE_TIME);
  });

  it("shows the subscription period when there is one", async () => {
    const { key, accountId } = await accountWithKey({ plan: "pro" });
    const start = new Date("2026-11-01T00:00:00.000Z");
    const end = new Date("2026-12-01T00:00:00.000Z");
    await db.subscription.create({
      data: {
        accountId,
        plan: "pro",
        status: "active",
        stripeSubscriptionId: `sub_test_${accountId}`,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        cancelAtPeriodEnd: true,
      },
    });
    const data = expectSuccess(await callOperation(getBilling, { key }));
    expect(data).toMatchObject({
      billing_subscription_status: "active",
      billing_cancel_at_period_end: true,
      billing_period_starts_at: start.toISOString(),
      billing_period_ends_at: end.toISOString(),
    });
  });

  it("reports a contract plan (no Stripe subscription) as manual with its period", async () => {
    const { key, accountId } = await accountWithKey({ plan: "enterprise" });
    const start = new Date("2026-11-01T00:00:00.000Z");
    const end = new Date("2027-11-01T00:00:00.000Z");
    await db.subscription.create({
      data: {
        accountId,
        plan: "enterprise",
        interval: "year",
        status: "active",
        currentPeriodStart: start,
        currentPeriodEnd: end,
        billingAnchor: start,
      },
    });
    const data = expectSuccess(await callOperation(getBilling, { key }));
    expect(data).toMatchObject({
      billing_plan: "enterprise",
      billing_subscription_status: "manual",
      billing_period_starts_at: start.toISOString(),
      billing_period_ends_at: end.toISOString(),
    });
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { renewManualPlans } from "@/server/jobs/functions/manual-plan-renewals";
import { db, disconnectDb } from "@/server/base/db";
import { getBilling } from "@/server/edge/http/operations/account";
import { cli } from "@/tests/support/cli";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { balanceOf } from "@/tests/support/generations";
import { callOperation, expectSuccess } from "@/tests/support/http";

// Contract plans (an operator sets the plan without Stripe): the period's credits are granted once
// per account and period, by `account:plan` itself and then by the renewal cron as periods begin.

afterAll(() => disconnectDb());

describe("account:plan --interval (contract plans)", () => {
  it("sets Enterprise yearly, grants 2490 once for the period, and renews at the period end", async () => {
    const { accountId } = await createTestAccount({ plan: "free" });
    const start = await balanceOf(accountId);
    const periodStart = new Date(Date.now() - 60_000).toISOString();
    const set = await cli([
      "account:plan",
      "--account",
      accountId,
      "--plan",
      "enterprise",
      "--interval",
      "year",
      "--period-start",
      periodStart,
    ]);
    expect(set.code).toBe(0);
    expect(set.body).toMatchObject({
      account_id: accountId,
      plan: "enterprise",
      interval: "year",
      period_start: periodStart,
      periods_credited: [periodStart],
    });
    expect(await balanceOf(accountId)).toBe(start + 2490);

    const key = await createTestKey(accountId);
    const billing = expectSuccess(await callOperation(getBilling, { key: key.key }));
    expect(billing).toMatchObject({
      billing_plan: "enterprise",
      billing_subscription_status: "manual",
      billing_period_starts_at: periodStart,
    });

    // The cron, run twice at the same moment, adds nothing more.
    await renewManualPlans({ now: new Date() });
    await renewManualPlans({ now: new Date() });
    expect(await balanceOf(accountId)).toBe(start + 2490);

    // A year and a day later: the next period, once.
    const later = new Date(Date.parse(periodStart) + 366 * 86_400_000);
    await renewManualPlans({ now: later });
    await renewManualPlans({ now: later });
    expect(await balanceOf(accountId)).toBe(start + 4980);
    const row = await db.subscription.findUniqueOrThrow({ where: { accountId } });
    expect(row.currentPeriodStart.toISOString()).toBe(new Date(Date.parse(periodStart) + 365 * 86_400_000).toISOString());
  });

  it("grants a monthly contract's missed periods once each, keyed by period start", async () => {
    const { accountId } = await createTestAccount({ plan: "free" });
    const start = await balanceOf(accountId);
    const set = await cli([
      "account:plan",
      "--account",
      accountId,
      "--plan",
      "starter",
      "--interval",
      "month",
      "--period-start",
      "2026-01-31T00:00:00Z",
    ]);
    expect(set.code).toBe(0);
    // The command granted every period up to now; the cron run again grants none twice.
    await renewManualPlans({ now: new Date() });
    const keys = (
      await db.ledgerEntry.findMany({ where: { accountId, sourceKey: { startsWith: "plan:" } }, orderBy: { createdAt: "asc" } })
    ).map((entry) => entry.sourceKey!.split(":").slice(2).join(":"));
    // Every period begun up to now, on the anchor's day or the month's last: Jan 31, Feb 28, Mar 31, Apr 30…
    expect(keys.slice(0, 4)).toEqual([
      "2026-01-31T00:00:00.000Z",
      "2026-02-28T00:00:00.000Z",
      "2026-03-31T00:00:00.000Z",
      "2026-04-30T00:00:00.000Z",
    ]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(await balanceOf(accountId)).toBe(start + 9 * keys.length);
  });

  it("refuses --interval on Free and --period-start without --interval (ERR1001, exit 2)", async () => {
    const { accountId } = await createTestAccount({ plan: "free" });
    const free = await cli(["account:plan", "--account", accountId, "--plan", "free", "--interval", "month"]);
    expect(free.code).toBe(2);
    expect(free.body.error.code).toBe("ERR1001");
    const noInterval = await cli(["account:plan", "--account", accountId, "--plan", "pro", "--period-start", "2026-01-01"]);
    expect(noInterval.code).toBe(2);
    expect(noInterval.body.error.message).toMatch(/--interval/);
  });
});

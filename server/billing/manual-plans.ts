import { changePlan } from "../accounts/change-plan";
import { recordActivity } from "../activity/record-activity";
import { addCredits } from "../credits/add-credits";
import { millisToDecimalString } from "../base/money";
import { accountScope, type OneAccount } from "../base/account-scope";
import type { Db, Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { lockAccount } from "./account-lookup";
import { periodCreditsMillis, type BillingIntervalName, type PaidPlan } from "./price-catalog";
import { isLive } from "../plans/subscription-status";

// Plans an operator sets without Stripe (an Enterprise contract): `account:plan --interval
// --period-start`. Kept as a subscription row with no Stripe id (`manual` in GET /v1/user/billing).
// The manual-plan-renewals cron grants each period's credits once, keyed by account and period
// start, and moves the period on when it ends; missed periods are granted when it runs again.

export type ManualPlanInput = { accountId: string; plan: PaidPlan; interval: BillingIntervalName; periodStart: Date };

/**
 * The start of period `n` of a contract anchored at `anchor` (n = 0 is the anchor): the anchor's
 * day of month, or the month's last day when it has fewer days (Jan 31 → Feb 28 → Mar 31), as
 * Stripe's billing cycle anchor does. UTC, time of day kept.
 */
export function periodStartAt(anchor: Date, interval: BillingIntervalName, n: number): Date {
  const months = interval === "month" ? n : 12 * n;
  const year = anchor.getUTCFullYear() + Math.floor((anchor.getUTCMonth() + months) / 12);
  const month = (anchor.getUTCMonth() + months) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const next = new Date(anchor);
  next.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return next;
}

/** The period that follows the one ending at `end`, as [start, end). */
export function followingPeriod(anchor: Date, interval: BillingIntervalName, end: Date): { start: Date; end: Date } {
  const monthsFromAnchor = (end.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (end.getUTCMonth() - anchor.getUTCMonth());
  const n = interval === "month" ? monthsFromAnchor : Math.round(monthsFromAnchor / 12);
  return { start: end, end: periodStartAt(anchor, interval, n + 1) };
}

const MAX_PERIODS_PER_RUN = 36;

/** Grants the credits of every period that has started and rolls the period on; idempotent. */
export async function renewManualPlan(tx: Tx, scope: OneAccount, now: Date): Promise<{ granted: string[] }> {
  const { accountId } = scope;
  await lockAccount(tx, accountId);
  let row = await tx.subscription.findUnique({ where: { accountId } });
  const granted: string[] = [];
  for (
    let step = 0;
    row && !row.stripeSubscriptionId && row.status === "active" && row.plan !== "free" && step < MAX_PERIODS_PER_RUN;
    step++
  ) {
    if (row.currentPeriodStart > now) break;
    const plan = row.plan as PaidPlan;
    const interval = row.interval as BillingIntervalName;
    const periodKey = row.currentPeriodStart.toISOString();
    const added = await addCredits(tx, {
      accountId,
      amountMillis: periodCreditsMillis(plan, interval),
      sourceKey: `plan:${accountId}:${periodKey}`,
      description: `${plan[0]!.toUpperCase()}${plan.slice(1)} plan (contract), ${interval === "year" ? "yearly" : "monthly"} credits for the period from ${periodKey.slice(0, 10)}`,
    });
    if (added.applied) {
      granted.push(periodKey);
      await recordActivity(tx, {
        accountId,
        actor: "system",
        category: "subscription",
        action: "subscription.renewed",
        description: `Contract period from ${periodKey.slice(0, 10)}: ${millisToDecimalString(periodCreditsMillis(plan, interval))} credits added`,
        metadata: { plan, interval, period_start: periodKey, period_end: row.currentPeriodEnd.toISOString() },
      });
    }
    if (row.currentPeriodEnd > now) break;
    const next = followingPeriod(row.billingAnchor ?? row.currentPeriodStart, interval, row.currentPeriodEnd);
    row = await tx.subscription.update({ where: { accountId }, data: { currentPeriodStart: next.start, currentPeriodEnd: next.end } });
  }
  return { granted };
}

export async function setManualPlan(tx: Tx, input: ManualPlanInput, now = new Date()) {
  const account = await tx.account.findUnique({ where: { id: input.accountId }, select: { id: true } });
  if (!account) throw new ApiError("ERR1006", "Account not found.", { account_id: input.accountId });
  await lockAccount(tx, input.accountId);
  const stored = await tx.subscription.findUnique({ where: { accountId: input.accountId } });
  if (stored?.stripeSubscriptionId && isLive(stored.status)) {
    throw invalidRequest(
      "This account pays through a Stripe subscription; cancel it (Customer Portal or Stripe) before setting a contract plan.",
      [{ field: "account", message: "has a Stripe subscription" }],
    );
  }
  const fields = {
    plan: input.plan,
    interval: input.interval,
    status: "active" as const,
    stripeSubscriptionId: null,
    stripePriceId: null,
    currency: "usd",
    cancelAtPeriodEnd: false,
    currentPeriodStart: input.periodStart,
    currentPeriodEnd: periodStartAt(input.periodStart, input.interval, 1),
    billingAnchor: input.periodStart,
  };
  await tx.subscription.upsert({
    where: { accountId: input.accountId },
    create: { accountId: input.accountId, ...fields },
    update: fields,
  });
  await changePlan(tx, { accountId: input.accountId, plan: input.plan, actor: "system" });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: "system",
    category: "subscription",
    action: "subscription.contract_set",
    description: `Contract plan ${input.plan} (${input.interval}ly) from ${input.periodStart.toISOString().slice(0, 10)}`,
    metadata: { plan: input.plan, interval: input.interval, period_start: input.periodStart.toISOString() },
  });
  const { granted } = await renewManualPlan(tx, accountScope(input.accountId), now);
  const row = await tx.subscription.findUniqueOrThrow({ where: { accountId: input.accountId } });
  return {
    account_id: input.accountId,
    plan: input.plan,
    interval: input.interval,
    period_start: row.currentPeriodStart.toISOString(),
    period_end: row.currentPeriodEnd.toISOString(),
    periods_credited: granted,
  };
}

/** The cron's list: every contract plan whose current period has started and is not yet credited or has ended (the cron renews each in its own transaction). */
export async function dueManualPlans(db: Db, { now }: { now: Date }): Promise<OneAccount[]> {
  const due = await db.subscription.findMany({
    where: { stripeSubscriptionId: null, status: "active", currentPeriodStart: { lte: now } },
    select: { accountId: true },
    take: 1000,
  });
  return due.map(({ accountId }) => accountScope(accountId));
}

import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { getBilling, getStatus } from "@/server/edge/http/operations/account";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { balanceOf } from "@/tests/support/generations";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { eventually, fakeControl, payCheckout, postStripeWebhook, stripeEvent, stripeRequests, testStripe } from "@/tests/support/stripe";

// Subscriptions bought through Checkout (the fake's hosted page pays and posts the signed events
// to the app), renewed, switched, failed and canceled: the plan, its limits and the credits follow
// what Stripe says now, whatever order or number of times the events arrive.

afterAll(() => disconnectDb());

const as = (userId: string) => createCaller({ userId });

async function subscribe(plan: "starter" | "pro" | "scale" | "enterprise", interval: "month" | "year") {
  const { accountId, userId, email } = await createTestAccount({ plan: "free" });
  const startingBalance = await balanceOf(accountId);
  const { url, sessionId } = await as(userId).billing.startCheckout({ accountId, plan, interval });
  const paid = await payCheckout(url);
  expect(paid.status).toBe(303);
  expect(paid.location).toContain(`/dashboard/${accountId}/billing?checkout=success&session_id=${sessionId}`);
  const subscription = await eventually(
    () => db.subscription.findUnique({ where: { accountId } }),
    (row) => row?.status === "active",
  );
  return { accountId, userId, email, startingBalance, sessionId, subscriptionId: subscription!.stripeSubscriptionId! };
}

const activityOf = (accountId: string, action: string) =>
  db.activityEvent.findMany({ where: { accountId, action }, orderBy: { createdAt: "asc" } });

describe("a plan bought through Checkout", () => {
  it("sends Checkout what it needs (mode, account, metadata, the price found by lookup key) and credits a monthly Pro with 29", async () => {
    const { accountId, startingBalance, sessionId } = await subscribe("pro", "month");
    const [sent] = (await stripeRequests({ path: "/v1/checkout/sessions", method: "POST" })).filter(
      (request) => request.params.client_reference_id === accountId,
    );
    expect(sent!.params).toMatchObject({
      mode: "subscription",
      client_reference_id: accountId,
      subscription_data: { metadata: { account_id: accountId } },
    });
    const price = await testStripe().prices.retrieve(sent!.params.line_items[0].price);
    expect(price.lookup_key).toBe("darkroom_pro_month");

    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 29,
    );
    const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, include: { subscription: true } });
    expect(account.plan).toBe("pro");
    expect(account.subscription).toMatchObject({
      plan: "pro",
      interval: "month",
      status: "active",
      currency: "usd",
      cancelAtPeriodEnd: false,
    });
    const session = await testStripe().checkout.sessions.retrieve(sessionId);
    expect(account.stripeCustomerId).toBe(session.customer);
    const [credit] = await db.ledgerEntry.findMany({ where: { accountId, type: "add", sourceKey: { startsWith: "invoice:" } } });
    expect(credit!.description).toMatch(/^Pro plan, monthly credits \(invoice /);
    expect(await activityOf(accountId, "subscription.created")).toHaveLength(1);
    expect(await activityOf(accountId, "billing.invoice_paid")).toHaveLength(1);
  });

  it("credits a yearly Scale with 790 and reports the period in GET /v1/user/billing", async () => {
    const { accountId, startingBalance } = await subscribe("scale", "year");
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 790,
    );
    const key = await createTestKey(accountId);
    const billing = expectSuccess(await callOperation(getBilling, { key: key.key }));
    expect(billing).toMatchObject({
      billing_plan: "scale",
      billing_subscription_status: "active",
      billing_cancel_at_period_end: false,
      billing_currency: "usd",
    });
    const days = (Date.parse(billing.billing_period_ends_at!) - Date.parse(billing.billing_period_starts_at!)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(365);
    expect(days).toBeLessThanOrEqual(366);
  });

  it("reuses the account's Stripe customer for every later Checkout and the portal", async () => {
    const { accountId, userId } = await createTestAccount({ plan: "free" });
    const first = await as(userId).billing.startCheckout({ accountId, plan: "starter", interval: "month" });
    const second = await as(userId).billing.startCheckout({ accountId, plan: "pro", interval: "year" });
    const [a, b] = await Promise.all([
      testStripe().checkout.sessions.retrieve(first.sessionId),
      testStripe().checkout.sessions.retrieve(second.sessionId),
    ]);
    expect(a.customer).toBeTruthy();
    expect(b.customer).toBe(a.customer);
    const portal = await as(userId).billing.openPortal({ accountId });
    expect(portal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const [sent] = (await stripeRequests({ path: "/v1/billing_portal/sessions", method: "POST" })).filter(
      (request) => request.params.customer === a.customer,
    );
    expect(sent!.params.return_url).toMatch(new RegExp(`/dashboard/${accountId}/billing$`));
  });

  it("refuses a second Checkout while a subscription is live", async () => {
    const { accountId, userId } = await subscribe("starter", "month");
    await expect(as(userId).billing.startCheckout({ accountId, plan: "pro", interval: "month" })).rejects.toMatchObject({
      message: expect.stringMatching(/Manage billing/),
    });
  });
});

describe("renewals", () => {
  it("adds the plan's credits once per invoice: a renewal adds again, a replayed invoice.paid adds nothing", async () => {
    const { accountId, startingBalance, subscriptionId } = await subscribe("starter", "month");
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 9,
    );
    await fakeControl(`subscriptions/${subscriptionId}/renew`);
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 18,
    );

    // The renewal's invoice again, as a new event (a replay) and as the same event (a duplicate).
    const invoices = await testStripe().invoices.list({ subscription: subscriptionId });
    const renewal = invoices.data.find((invoice) => invoice.billing_reason === "subscription_cycle")!;
    const replay = stripeEvent("invoice.paid", renewal);
    expect((await postStripeWebhook(replay)).body.data?.duplicate).toBe(false);
    expect((await postStripeWebhook(replay)).body.data?.duplicate).toBe(true);
    await eventually(
      () => db.stripeEvent.findUniqueOrThrow({ where: { id: replay.id } }),
      (row) => row.processedAt !== null,
    );
    expect(await balanceOf(accountId)).toBe(startingBalance + 18);
    expect(await db.ledgerEntry.count({ where: { accountId, sourceKey: `invoice:${renewal.id}` } })).toBe(1);
  });

  it("a failed payment keeps the plan (past_due), notifies the primary owner by notification and e-mail, and records billing activity", async () => {
    const { accountId, userId, email, subscriptionId } = await subscribe("pro", "month");
    await fakeControl(`subscriptions/${subscriptionId}/fail_payment`);
    await eventually(
      () => db.subscription.findUniqueOrThrow({ where: { accountId } }),
      (row) => row.status === "past_due",
    );
    const notification = await eventually(
      () => db.notification.findFirst({ where: { accountId, kind: "billing.payment_failed" } }),
      (row) => row !== null,
    );
    expect(notification!.userId).toBe(userId);
    expect(notification!.title).toBe("Payment failed");
    expect(await db.emailOutbox.count({ where: { to: email, kind: "billing.payment_failed" } })).toBe(1);
    expect(await activityOf(accountId, "billing.payment_failed")).toHaveLength(1);
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe("pro");
  });
  it("a trial sets the plan but adds no credits for its $0 invoice; the first paid period does", async () => {
    const { accountId } = await createTestAccount({ plan: "free" });
    const startingBalance = await balanceOf(accountId);
    const stripe = testStripe();
    const customer = await stripe.customers.create({ email: "trial@test.darkroom.local", metadata: { account_id: accountId } });
    const price = (await stripe.prices.list({ lookup_keys: ["darkroom_starter_month"] })).data[0]!;
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      trial_period_days: 14,
      metadata: { account_id: accountId },
    });
    await eventually(
      () => db.subscription.findUnique({ where: { accountId } }),
      (row) => row?.status === "trialing",
    );
    await eventually(
      () =>
        db.stripeEvent.count({
          where: {
            type: "invoice.paid",
            processedAt: { not: null },
            payload: { path: ["data", "object", "customer"], equals: customer.id },
          },
        }),
      (count) => count === 1,
    );
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe("starter");
    expect(await balanceOf(accountId)).toBe(startingBalance);
    await fakeControl(`subscriptions/${subscription.id}/renew`);
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 9,
    );
  });
});

describe("plan changes", () => {
  it("change the rate limit at once, and a deleted subscription returns the account to Free without taking credits", async () => {
    const { accountId, startingBalance, subscriptionId } = await subscribe("pro", "month");
    const key = await createTestKey(accountId);
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 29,
    );
    expect((await callOperation(getStatus, { key: key.key })).headers.get("x-ratelimit-limit")).toBe("150");

    const stripe = testStripe();
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const scale = (await stripe.prices.list({ lookup_keys: ["darkroom_scale_month"] })).data[0]!;
    await stripe.subscriptions.update(subscriptionId, { items: [{ id: subscription.items.data[0]!.id, price: scale.id }] });
    await eventually(
      () => db.account.findUniqueOrThrow({ where: { id: accountId } }),
      (account) => account.plan === "scale",
    );
    expect((await callOperation(getStatus, { key: key.key })).headers.get("x-ratelimit-limit")).toBe("300");

    await stripe.subscriptions.cancel(subscriptionId);
    await eventually(
      () => db.account.findUniqueOrThrow({ where: { id: accountId } }),
      (account) => account.plan === "free",
    );
    expect((await callOperation(getStatus, { key: key.key })).headers.get("x-ratelimit-limit")).toBe("30");
    expect(await balanceOf(accountId)).toBe(startingBalance + 29);
    expect((await db.subscription.findUniqueOrThrow({ where: { accountId } })).status).toBe("canceled");
    expect(await activityOf(accountId, "subscription.canceled")).toHaveLength(1);
  });

  it("converge on Stripe's current state when stale events arrive late and out of order (and an interval switch bills the new period)", async () => {
    const { accountId, subscriptionId, startingBalance } = await subscribe("starter", "month");
    const stripe = testStripe();
    const old = await stripe.subscriptions.retrieve(subscriptionId);
    const pro = (await stripe.prices.list({ lookup_keys: ["darkroom_pro_year"] })).data[0]!;
    await stripe.subscriptions.update(subscriptionId, {
      items: [{ id: old.items.data[0]!.id, price: pro.id }],
      cancel_at_period_end: true,
    });
    await eventually(
      () => db.subscription.findUniqueOrThrow({ where: { accountId } }),
      (row) => row.plan === "pro" && row.interval === "year" && row.cancelAtPeriodEnd,
    );
    // Switching the interval starts a new (yearly) period, billed at once: its credits are added.
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 9 + 290,
    );

    // Stale copies of the old state: an "updated" first, then the "created" it should have followed.
    const updated = stripeEvent("customer.subscription.updated", old);
    const created = stripeEvent("customer.subscription.created", old);
    await postStripeWebhook(updated);
    await postStripeWebhook(created);
    await eventually(
      () => db.stripeEvent.findMany({ where: { id: { in: [updated.id, created.id] }, processedAt: { not: null } } }),
      (rows) => rows.length === 2,
    );
    const row = await db.subscription.findUniqueOrThrow({ where: { accountId } });
    expect(row).toMatchObject({ plan: "pro", interval: "year", status: "active", cancelAtPeriodEnd: true });
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe("pro");
    expect(await activityOf(accountId, "subscription.created")).toHaveLength(1);
  });

  it("a subscription set to cancel at the period end ends at the renewal: Free, no new credits", async () => {
    const { accountId, startingBalance, subscriptionId } = await subscribe("starter", "month");
    await eventually(
      () => balanceOf(accountId),
      (balance) => balance === startingBalance + 9,
    );
    await testStripe().subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    await eventually(
      () => db.subscription.findUniqueOrThrow({ where: { accountId } }),
      (row) => row.cancelAtPeriodEnd,
    );
    await fakeControl(`subscriptions/${subscriptionId}/renew`);
    await eventually(
      () => db.account.findUniqueOrThrow({ where: { id: accountId } }),
      (account) => account.plan === "free",
    );
    expect(await balanceOf(accountId)).toBe(startingBalance + 9);
  });
});
